package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

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
    /** A secret is one line; a file much longer than that is not the secret's file. */
    private static final int MAX_FILE_BYTES = 4096;
    private static final String HOW = "make one with: openssl rand -hex 32";

    private JobSecret() {
    }

    /** The secret this process was given, or empty when none was: the rendezvous is then not authenticated. */
    public static Optional<String> of(Map<String, String> env) {
        String given = env.get("NCCLBENCH_TOKEN");
        String file = env.get("NCCLBENCH_TOKEN_FILE");
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
        return secret;
    }

    /** The file's one line, once its mode shows that only its owner can read it. */
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
