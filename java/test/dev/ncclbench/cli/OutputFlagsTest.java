package dev.ncclbench.cli;

import dev.ncclbench.CliRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every output flag of every command onto a device node, into a missing folder and onto a full file system: a
 * non-zero exit with one line naming the file, the node still a node, no folder created, nothing half-written.
 * The node is a private one (mknod, as root) so that a regression cannot replace this machine's /dev/full; without
 * root /dev/full itself is safe to aim at (nobody but root can rename over it).
 */
class OutputFlagsTest {
    @TempDir
    static Path dir;
    static Path run;
    static Path baselines;
    static Path node;
    static Path tmpfs;

    /** One command with one output flag; the function puts the target path into its arguments. */
    record Case(String name, Function<Path, List<String>> args, boolean cheapOnFullDisk) {
    }

    static List<String> sweep(String... more) {
        List<String> a = new ArrayList<>(List.of("sweep", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e", "4K",
                "-n", "2", "-w", "1", "--no-progress", "--out", dir.resolve("runs").toString()));
        a.addAll(List.of(more));
        return a;
    }

    static int fresh;

    static String freshJson() {
        return dir.resolve("fresh-" + (fresh++) + ".json").toString();
    }

    static final List<Case> CASES = List.of(
            new Case("gate --junit", p -> List.of("gate", "--dir", baselines.toString(), "--junit", p.toString(),
                    run.toString()), true),
            new Case("gate --markdown", p -> List.of("gate", "--dir", baselines.toString(), "--markdown", p.toString(),
                    run.toString()), true),
            new Case("gate --prometheus", p -> List.of("gate", "--dir", baselines.toString(), "--prometheus",
                    p.toString(), run.toString()), true),
            new Case("gate --json", p -> List.of("gate", "--dir", baselines.toString(), "--json", p.toString(),
                    run.toString()), true),
            new Case("report --html", p -> List.of("report", "--html", p.toString(), run.toString()), true),
            new Case("report --svg", p -> List.of("report", "--svg", p.toString(), run.toString()), true),
            new Case("report --png", p -> List.of("report", "--png", p.toString(), run.toString()), true),
            new Case("sweep --html", p -> sweep("--html", p.toString(), "--json", freshJson()), true),
            new Case("sweep --json", p -> sweep("--json", p.toString()), true),
            new Case("doctor --save", p -> List.of("doctor", "--no-probe-nccl", "--save", p.toString()), true),
            new Case("doctor --json", p -> List.of("doctor", "--no-probe-nccl", "--json", p.toString()), true),
            new Case("env --json", p -> List.of("env", "--json", p.toString()), true),
            new Case("rules --json", p -> List.of("rules", "--json", p.toString()), true),
            new Case("explain --json", p -> List.of("explain", "--json", p.toString(), Path.of(System.getProperty(
                    "ncclbench.basedir", "."), "java", "test-resources", "nccllog", "seeds", "ib-without-gdrdma.log")
                    .toString()), true),
            new Case("baseline record --out", p -> List.of("baseline", "record", "--out", p.toString(),
                    run.toString()), true),
            new Case("preflight --junit", p -> List.of("preflight", "--junit", p.toString()), false),
            new Case("preflight --markdown", p -> List.of("preflight", "--markdown", p.toString()), false),
            new Case("preflight --prometheus", p -> List.of("preflight", "--prometheus", p.toString()), false),
            new Case("preflight --html", p -> List.of("preflight", "--html", p.toString()), false),
            new Case("preflight --json", p -> List.of("preflight", "--json", p.toString()), false));

    @BeforeAll
    static void aRunAndItsBaseline() throws Exception {
        Files.createDirectories(dir.resolve("runs"));
        run = dir.resolve("run.json");
        CliRun r = cli(sweep("--json", run.toString()));
        assertEquals(0, r.code(), r.err());
        baselines = dir.resolve("baselines");
        assertEquals(0, cli(List.of("baseline", "record", "--dir", baselines.toString(), run.toString())).code());
        node = dir.resolve("integrity-full");
        Process p = new ProcessBuilder("mknod", node.toString(), "c", "1", "7").redirectErrorStream(true).start();
        if (p.waitFor() != 0) {
            node = Path.of("/dev/full");
        }
    }

    @AfterAll
    static void unmount() throws Exception {
        if (tmpfs != null) {
            // lazy: a writer of the commands run in this JVM may still hold a descriptor on the full file system
            // (the in-process commands' journals), and a busy mount would fail the temp folder's clean-up
            new ProcessBuilder("umount", "-l", tmpfs.toString()).inheritIO().start().waitFor();
        }
    }

    @Test
    void aDeviceNodeIsRefusedAndSurvives() {
        for (Case c : CASES) {
            CliRun r = cli(c.args().apply(node));
            assertNotEquals(0, r.code(), c.name() + ": " + r.out() + r.err());
            assertTrue(r.err().contains(node.toString()), c.name() + ": " + r.err());
            assertEquals(1, r.err().lines().count(), c.name() + ": " + r.err());
            assertTrue(Files.exists(node, LinkOption.NOFOLLOW_LINKS), c.name() + ": the node is gone");
            assertFalse(Files.isRegularFile(node, LinkOption.NOFOLLOW_LINKS), c.name() + ": the node was replaced");
        }
    }

    @Test
    void aMissingFolderIsRefusedAndNotCreated() {
        Path missing = dir.resolve("no-such-folder");
        for (Case c : CASES) {
            CliRun r = cli(c.args().apply(missing.resolve("out.file")));
            assertEquals(2, r.code(), c.name() + ": " + r.out() + r.err());
            assertTrue(r.err().contains("does not exist"), c.name() + ": " + r.err());
            assertFalse(Files.exists(missing), c.name() + " created the folder");
        }
    }

    @Test
    void aFolderIsRefused() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("a-folder"));
        for (Case c : CASES) {
            CliRun r = cli(c.args().apply(folder));
            assertEquals(2, r.code(), c.name() + ": " + r.out() + r.err());
            assertTrue(r.err().contains("is a folder"), c.name() + ": " + r.err());
        }
    }

    @Test
    void aFullFileSystemIsAFailedWriteNamingTheFile() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "needs root to mount a small tmpfs (mount -t tmpfs -o size=64k)");
        Path mnt = Files.createDirectories(dir.resolve("integrity-tmpfs"));
        Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "integrity-tmpfs", mnt.toString())
                .redirectErrorStream(true).start();
        String why = new String(m.getInputStream().readAllBytes());
        Assumptions.assumeTrue(m.waitFor() == 0, "mount -t tmpfs failed (no CAP_SYS_ADMIN here?): " + why);
        tmpfs = mnt;
        try (OutputStream o = Files.newOutputStream(mnt.resolve("filler"))) {
            byte[] block = new byte[4096];
            while (true) {
                o.write(block);
                o.flush();
            }
        } catch (IOException full) {
            // full: every later write fails with ENOSPC
        }
        for (Case c : CASES) {
            if (!c.cheapOnFullDisk()) {
                continue;
            }
            Path target = mnt.resolve("out-" + c.name().replaceAll("[^a-z]+", "-"));
            CliRun r = cli(c.args().apply(target));
            assertTrue(r.code() == 1 || r.code() == 2, c.name() + ": exit " + r.code() + " " + r.out() + r.err());
            assertTrue(r.err().contains(target.toString()), c.name() + ": " + r.err());
            assertFalse(Files.exists(target) && Files.size(target) > 0 && !c.name().equals("sweep --json"),
                    c.name() + ": half a file left");
        }
        try (var left = Files.list(mnt)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "a temporary file was left");
        }
    }

    @Test
    void standardOutputOntoAFullDeviceIsNotExitZero() throws Exception {
        Assumptions.assumeTrue(Files.isWritable(Path.of("/dev/full")), "needs /dev/full");
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter full = new PrintWriter(new java.io.FileOutputStream("/dev/full"))) {
            code = Main.run(new String[]{"gate", "--dir", baselines.toString(), "--json", "-", run.toString()}, full,
                    new PrintWriter(err));
        }
        assertEquals(1, code, err.toString());
        assertTrue(err.toString().contains("cannot write to standard output"), err.toString());
    }
}
