package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.launch.LaunchInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the job's secret comes from, and every way it can be wrong: one line, exit 2 or 3. */
class JobSecretTest {
    private static final String SECRET = "3c6e0b8a9c15224a8228b9a98ca1531d3c6e0b8a9c15224a8228b9a98ca1531d";
    private static final LaunchInfo TWO = new LaunchInfo(0, 2, 0, 1, "node0", 29600, "1234", "slurm");

    @TempDir
    Path dir;

    private static NcclbenchException refused(Map<String, String> env, ExitCode code) {
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> JobSecret.of(Host.of(env)));
        assertEquals(code, e.exitCode(), e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e;
    }

    private Path file(String text, String mode) throws Exception {
        Path p = dir.resolve("secret");
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        return p;
    }

    @Test
    void theVariableOrAPrivateFileGivesTheSecret() throws Exception {
        assertEquals(Optional.empty(), JobSecret.of(Host.of(Map.of())));
        assertEquals(Optional.of(SECRET), JobSecret.of(Host.of(Map.of("NCCLBENCH_TOKEN", SECRET + "\n"))));
        Path p = file(SECRET + "\n", "rw-------");
        assertEquals(Optional.of(SECRET), JobSecret.of(Host.of(Map.of("NCCLBENCH_TOKEN_FILE", p.toString()))));
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r--------"));
        assertEquals(Optional.of(SECRET), JobSecret.of(Host.of(Map.of("NCCLBENCH_TOKEN_FILE", p.toString()))));
    }

    @Test
    void aWrongSecretIsOneLineAndTheRightExitCode() throws Exception {
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN", SECRET, "NCCLBENCH_TOKEN_FILE", "/x"), ExitCode.USAGE).getMessage()
                .contains("both set"));
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN", " "), ExitCode.USAGE).getMessage().contains("empty"));
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN", "this-job"), ExitCode.USAGE).getMessage().contains("8 characters"));
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN_FILE", ""), ExitCode.USAGE).getMessage().contains("empty"));
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN_FILE", dir.resolve("none").toString()), ExitCode.ENVIRONMENT).getMessage()
                .contains("no such file"));
        Path open = file(SECRET, "rw-r--r--");
        String m = refused(Map.of("NCCLBENCH_TOKEN_FILE", open.toString()), ExitCode.ENVIRONMENT).getMessage();
        assertTrue(m.contains("rw-r--r--") && m.contains("chmod 600 " + open), m);
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN_FILE", file(SECRET, "rw--w----").toString()), ExitCode.ENVIRONMENT)
                .getMessage().contains("by others"));
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN_FILE", file("", "rw-------").toString()), ExitCode.ENVIRONMENT)
                .getMessage().contains("empty"));
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN_FILE", file(SECRET + "\n" + SECRET, "rw-------").toString()),
                ExitCode.ENVIRONMENT).getMessage().contains("more than one line"));
    }

    @Test
    void aSecretMakesTheTokenAndTheRunAuthenticated() {
        Rendezvous.Place without = Rendezvous.place(TWO, 1, null, Host.of(Map.of()));
        assertFalse(without.authenticated());
        Rendezvous.Place with = Rendezvous.place(TWO, 1, null, Host.of(Map.of("NCCLBENCH_TOKEN", SECRET)));
        assertTrue(with.authenticated());
        assertNotEquals(new String(without.token()), new String(with.token()));
        // every process of the job makes the same token of the same secret, from the variable or the file
        assertArrayEquals(with.token(), Rendezvous.place(new LaunchInfo(1, 2, 0, 1, "node0", 29600, "1234", "slurm"), 1, null,
                Host.of(Map.of("NCCLBENCH_TOKEN", SECRET))).token());
        // one process: a random secret of its own, which never leaves it
        assertTrue(Rendezvous.place(LaunchInfo.single(), 1, null, Host.of(Map.of())).authenticated());
        // a secret that cannot be read is said in every run, one process too
        assertThrows(NcclbenchException.class, () -> Rendezvous.place(LaunchInfo.single(), 1, null,
                Host.of(Map.of("NCCLBENCH_TOKEN", "short"))));
    }

    /**
     * A secret a person typed: 16 of one character, a short word and digits, a short string twice. Refused in one line
     * (exit 2, or 3 from a file): the launchers' 64 random hex digits pass.
     */
    @Test
    void aGuessableSecretIsRefused() throws Exception {
        for (String weak : new String[] {"aaaaaaaaaaaaaaaa", "password12345678", "0123456789abcdef0123456789abcdef"}) {
            String m = refused(Map.of("NCCLBENCH_TOKEN", weak), ExitCode.USAGE).getMessage();
            assertTrue(m.contains("NCCLBENCH_TOKEN holds a guessable secret (about ") && m.contains("openssl rand -hex 32"), m);
        }
        assertEquals(0, Math.round(JobSecret.estimatedBits("aaaaaaaaaaaaaaaa")));
        assertEquals(62, Math.round(JobSecret.estimatedBits("password12345678")));
        assertTrue(JobSecret.estimatedBits(SECRET) > 100, "the test's own secret repeats a 32-digit half: counted once");
        Path weak = file("password12345678", "rw-------");
        assertTrue(refused(Map.of("NCCLBENCH_TOKEN_FILE", weak.toString()), ExitCode.ENVIRONMENT).getMessage()
                .contains("guessable"));
        assertEquals(Optional.of("an-intruder-guessing-the-secret-0123456789"),
                JobSecret.of(Host.of(Map.of("NCCLBENCH_TOKEN", "an-intruder-guessing-the-secret-0123456789"))));
    }

    /** A 0600 file another user owns: its owner can read the secret and put another in it. Needs root to make one. */
    @Test
    void aSecretFileAnotherUserOwnsIsRefused() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "needs root to give a file to another user");
        Path p = file(SECRET, "rw-------");
        Files.setOwner(p, p.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        String m = refused(Map.of("NCCLBENCH_TOKEN_FILE", p.toString()), ExitCode.ENVIRONMENT).getMessage();
        assertTrue(m.contains("belongs to uid ") && m.contains("(nobody), not to the user this process runs as"), m);
    }
}
