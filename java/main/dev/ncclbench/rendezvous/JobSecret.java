package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The job's secret, as the launcher hands it to every process of the job: NCCLBENCH_TOKEN, or the first line of the
 * file NCCLBENCH_TOKEN_FILE names (the owner's alone: mode 0600 or stricter). The sbatch scripts make a random one per
 * job; mpirun passes it with -x; Kubernetes takes it from a Secret (docs/security.md).
 */
public final class JobSecret {
    /** What a run without a secret says in its header and its JSON. */
    public static final String NOT_AUTHENTICATED =
            "rendezvous not authenticated: any process that knows the job id can join; set NCCLBENCH_TOKEN";
    /** Shorter is guessable from one sniffed hello, offline: the launchers make 64 hex digits. */
    static final int MIN_CHARS = 16;
    /**
     * Fewer bits than this by a count of the secret's own characters ({@link #estimatedBits}) is refused: 16 of one
     * character count 0, "password12345678" 62, the launchers' 64 hex digits about 230, openssl rand -hex 16 about 110.
     */
    static final int MIN_BITS = 80;
    /** A secret is one line; a file much longer than that is not the secret's file. */
    private static final int MAX_FILE_BYTES = 4096;
    private static final String HOW = "make one with: openssl rand -hex 32";

    private JobSecret() {
    }

    /** The file's owner when it is not this process's user ("uid 65534 (nobody)"), else null. */
    private static String otherOwner(Path p) throws IOException {
        String owner = Files.getOwner(p).getName();
        try {
            Object mine = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            Object its = Files.getAttribute(p, "unix:uid");
            return mine.equals(its) ? null : "uid " + its + " (" + owner + ")";
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            // no /proc or no unix view: the names
            return owner.equals(System.getProperty("user.name")) ? null : owner;
        }
    }

    /** The secret this process was given, or empty when none was: the rendezvous is then not authenticated. */
    public static Optional<String> of(Host host) {
        String given = host.get(Variable.NCCLBENCH_TOKEN);
        String file = host.get(Variable.NCCLBENCH_TOKEN_FILE);
        if (given != null && file != null) {
            throw NcclbenchException.usage("NCCLBENCH_TOKEN and NCCLBENCH_TOKEN_FILE are both set: set one of them");
        }
        if (given != null) {
            return Optional.of(checked(given.strip(), "NCCLBENCH_TOKEN", ExitCode.USAGE));
        }
        if (file != null) {
            if (file.isBlank()) {
                throw NcclbenchException.usage("NCCLBENCH_TOKEN_FILE is set but empty: name the file that holds the job's secret");
            }
            return Optional.of(checked(read(Path.of(file.strip())), "NCCLBENCH_TOKEN_FILE=" + file.strip(), ExitCode.ENVIRONMENT));
        }
        return Optional.empty();
    }

    private static String checked(String secret, String where, ExitCode code) {
        if (secret.isEmpty()) {
            throw new NcclbenchException(code, where + " holds an empty secret; " + HOW);
        }
        if (secret.length() < MIN_CHARS) {
            throw new NcclbenchException(code, where + " holds a secret of " + secret.length() + " characters, fewer than "
                    + MIN_CHARS + ": one sniffed hello would let anyone guess it; " + HOW);
        }
        double bits = estimatedBits(secret);
        if (bits < MIN_BITS) {
            throw new NcclbenchException(code, where + " holds a guessable secret (about " + Math.round(bits) + " bits by a"
                    + " count of its characters, under " + MIN_BITS + "): one sniffed hello would let anyone try guesses"
                    + " offline; " + HOW);
        }
        return secret;
    }

    /**
     * An upper estimate of a secret's strength from its own characters: its length times the entropy of their
     * frequencies, a secret that repeats a shorter one counted as that one. It cannot see a dictionary word, only what
     * repeats: a floor against the obviously weak, not a measure of the strong.
     */
    static double estimatedBits(String secret) {
        int[] cs = secret.codePoints().toArray();
        int period = cs.length;
        for (int p = 1; p < cs.length; p++) {
            if (cs.length % p == 0 && repeats(cs, p)) {
                period = p;
                break;
            }
        }
        java.util.Map<Integer, Integer> counts = new java.util.HashMap<>();
        for (int i = 0; i < period; i++) {
            counts.merge(cs[i], 1, Integer::sum);
        }
        double h = 0;
        for (int c : counts.values()) {
            double q = (double) c / period;
            h -= q * Math.log(q) / Math.log(2);
        }
        return h * period;
    }

    private static boolean repeats(int[] cs, int p) {
        for (int i = p; i < cs.length; i++) {
            if (cs[i] != cs[i - p]) {
                return false;
            }
        }
        return true;
    }

    /** The file's one line, once its mode shows that only its owner can read it, and its owner is this process's user. */
    private static String read(Path p) {
        String where = "NCCLBENCH_TOKEN_FILE=" + p;
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p);
            for (PosixFilePermission bit : mode) {
                if (!bit.name().startsWith("OWNER_")) {
                    throw new NcclbenchException(ExitCode.ENVIRONMENT, where + " may be read or changed by others (mode "
                            + PosixFilePermissions.toString(mode) + "): the job's secret must be its owner's alone; chmod 600 " + p);
                }
            }
            String stranger = otherOwner(p);
            if (stranger != null) {
                // its owner may chmod it, read it and put another secret in it whenever they like
                throw new NcclbenchException(ExitCode.ENVIRONMENT, where + " belongs to " + stranger + ", not to the user this"
                        + " process runs as: its owner can read the job's secret and change it; use a file of your own");
            }
            byte[] b;
            try (InputStream in = Files.newInputStream(p)) {
                b = in.readNBytes(MAX_FILE_BYTES + 1);
            }
            if (b.length > MAX_FILE_BYTES) {
                throw new NcclbenchException(ExitCode.ENVIRONMENT, where + " is over " + MAX_FILE_BYTES
                        + " bytes: it should hold the job's secret, one line");
            }
            String text = new String(b, StandardCharsets.UTF_8).strip();
            if (text.contains("\n")) {
                throw new NcclbenchException(ExitCode.ENVIRONMENT, where + " holds more than one line: it should hold the job's"
                        + " secret alone");
            }
            return text;
        } catch (NoSuchFileException e) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, where + ": no such file");
        } catch (UnsupportedOperationException e) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, where + ": its file system has no POSIX modes, so nothing shows"
                    + " that only its owner can read it; pass the secret as NCCLBENCH_TOKEN");
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, where + " cannot be read: " + e.getMessage());
        }
    }
}
