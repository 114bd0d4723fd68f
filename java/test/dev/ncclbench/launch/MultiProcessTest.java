package dev.ncclbench.launch;

import dev.ncclbench.rendezvous.JobSecret;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultRow;
import dev.ncclbench.results.ResultFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real JVM processes that find each other through the launchers' variables: Open MPI's mpirun, torchrun-style
 * and Slurm-style environments, a rank killed mid-sweep, and a stray process of another job. Each child runs
 * {@code java -cp <this test's classpath> dev.ncclbench.cli.Main sweep ...}, so no jar is needed.
 */
@Tag("multiprocess")
@Timeout(value = 150, unit = TimeUnit.SECONDS)
public class MultiProcessTest {
    private static final long WAIT_SECONDS = 90;

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void destroyEverything() throws InterruptedException {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : started) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    // ---- launching ----

    public static String javaCommand() {
        return dev.ncclbench.ChildJvm.javaCommand();
    }

    public static String classPath() {
        return dev.ncclbench.ChildJvm.classPath();
    }

    static List<String> jvm() {
        return jvm("384m");
    }

    /** {@code java -Xmx<heap> ... dev.ncclbench.cli.Main}: a child ncclbench on this test's class path, with this heap. */
    public static List<String> jvm(String heap) {
        return dev.ncclbench.ChildJvm.jvm(heap);
    }

    /** The surrounding environment without any launcher's variables: each test sets its own. */
    public static Map<String, String> cleanEnv() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("OMPI_") || k.startsWith("PMIX_") || k.startsWith("SLURM_")
                || k.startsWith("PMI_") || k.startsWith("MPI_LOCAL") || k.startsWith("TORCHELASTIC_")
                || k.startsWith("NCCLBENCH_") || k.startsWith("NCCL_")
                || List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
                        "GROUP_RANK").contains(k));
        return env;
    }

    private Process start(String name, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.redirectOutput(dir.resolve(name + ".out").toFile());
        pb.redirectError(dir.resolve(name + ".err").toFile());
        pb.directory(dir.toFile());
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private String out(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".out"), StandardCharsets.UTF_8);
    }

    private String err(String name) throws IOException {
        return Files.readString(dir.resolve(name + ".err"), StandardCharsets.UTF_8);
    }

    private static List<String> sweep(String... args) {
        List<String> c = new ArrayList<>(jvm());
        c.add("sweep");
        c.add("--no-progress");
        c.addAll(List.of(args));
        return c;
    }

    private static int exit(Process p, long seconds, String what) throws InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(what + " did not exit within " + seconds + " s");
        }
        return p.exitValue();
    }

    /**
     * A port p with p + 1 free too (torchrun's store has MASTER_PORT; ours takes the next one), outside the
     * kernel's ephemeral range: a port there can be taken by any outgoing connection between this check and the
     * job's bind, one from bind(0) is taken from exactly that range.
     */
    public static int freePortPair() throws IOException {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        int[] eph = dev.ncclbench.rendezvous.Ports.ephemeralRange();
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int p = 10000 + random.nextInt(eph[0] - 10000 - 1);
            try (ServerSocket a = new ServerSocket(p, 1, lo); ServerSocket b = new ServerSocket(p + 1, 1, lo)) {
                return p;
            } catch (IOException busy) {
                // try another
            }
        }
        throw new IOException("no two consecutive free ports on 127.0.0.1 below " + eph[0]);
    }

    private static Map<String, String> torchrun(int rank, int world, int port) {
        Map<String, String> env = cleanEnv();
        env.put("RANK", Integer.toString(rank));
        env.put("WORLD_SIZE", Integer.toString(world));
        env.put("LOCAL_RANK", Integer.toString(rank));
        env.put("LOCAL_WORLD_SIZE", Integer.toString(world));
        env.put("MASTER_ADDR", "127.0.0.1");
        env.put("MASTER_PORT", Integer.toString(port));
        return env;
    }

    private void assertGoodResult(Path json, int nranks, int rows) throws IOException {
        ResultDocument doc = ResultFiles.read(json);
        assertEquals("ok", doc.status());
        assertEquals(nranks, doc.nranks());
        assertEquals(nranks, doc.ranks().size());
        assertEquals(rows, doc.rows().size());
        for (ResultRow row : doc.rows()) {
            assertEquals(0L, row.outOfPlace().wrong(), "size " + row.sizeBytes());
            assertEquals(0L, row.inPlace().wrong(), "size " + row.sizeBytes());
        }
        List<Long> pids = doc.ranks().stream().map(dev.ncclbench.results.RankInfo::pid).distinct().toList();
        assertEquals(nranks, pids.size(), "one process per rank: " + pids);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    // ---- the tests ----

    static String mpirun() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "mpirun"))) {
                return Path.of(d, "mpirun").toString();
            }
        }
        Assumptions.assumeTrue(false, "mpirun is not installed (apt-get install openmpi-bin)");
        return null;
    }

    private void awaitFirstRow(Path journal, List<Process> alive, String errName) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(journal) && Files.readAllLines(journal).stream().anyMatch(l -> l.contains("\"collective\"")))) {
            for (Process p : alive) {
                assertTrue(p.isAlive(), "ended before its first row: " + err(errName));
            }
            assertTrue(System.nanoTime() < deadline, "no row journalled within 60 s: " + err(errName));
            Thread.sleep(50);
        }
    }

    /** SIGTERM (scancel, a time limit) to mpirun mid-sweep: every rank stops, rank 0 keeps its rows, exit 143. */
    @Test
    void sigtermUnderMpirunEndsTheRunInterruptedWithItsRows() throws Exception {
        String mpirun = mpirun();
        Path json = dir.resolve("term.json");
        // On SIGTERM, mpirun (Open MPI 4.1) sends its ranks SIGCONT, waits odls_base_sigkill_timeout seconds (1),
        // sends SIGTERM, waits as long again, then SIGKILL: one second is too short for rank 0 to write the result
        // on a loaded 2-core machine, so the test gives what the README advises. -N 50 keeps the sweep running
        // through the wait before SIGTERM reaches the ranks (the test ends at the signal, not at the sweep's end).
        List<String> cmd = new ArrayList<>(List.of(mpirun, "--allow-run-as-root", "--oversubscribe",
                "--mca", "odls_base_sigkill_timeout", "5", "-np", "3"));
        cmd.addAll(sweep("--backend", "socket", "-b", "1M", "-e", "64M", "-f", "2", "-n", "20", "-N", "50", "-T", "20",
                "--json", json.toString()));
        Process p = start("term", cmd, cleanEnv());
        awaitFirstRow(ResultFiles.journalOf(json), List.of(p), "term");
        assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).start().waitFor());
        int code = exit(p, 40, "mpirun after SIGTERM");
        String err = err("term");
        System.out.println("MultiProcessTest: mpirun exited " + code + " after SIGTERM; said: " + err.strip().replace("\n", " | "));
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
        ResultDocument doc = ResultFiles.read(json);
        assertEquals("interrupted", doc.status(), "status; error: " + doc.error());
        assertTrue(doc.rows().size() >= 1, "the rows measured are kept");
        assertTrue(doc.error().contains("SIGTERM"), doc.error());
        assertTrue(out("term").contains("# Collective test stopped: all_reduce_perf (interrupted)"), out("term"));
    }

    /**
     * A first Ctrl-C mid-size, while the ranks check a large size's results (-c 20 at 32 MiB: 40 checks of 8M
     * elements), stops the run soon with the rows measured (status interrupted, exit 130) and says at which size it
     * stopped. A check ran on after the signal until its end (17 s at 256 MiB on a busy machine); the time is
     * printed, not asserted: AbortedWorkTest holds the check to the abort.
     */
    @Test
    void aFirstSigintMidSizeStopsSoonKeepingTheRowsMeasured() throws Exception {
        Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored in this test's process (a shell without job control"
                + " started it in the background), and its children inherit that");
        Path json = dir.resolve("int.json");
        // 32 MiB: its buffers fit the child's -Xmx384m (else -e is lowered and the sweep has one size)
        Process p = start("int", sweep("--backend", "socket", "--ranks", "2", "-b", "1M", "-e", "32M", "-f", "32",
                "-n", "4", "-w", "0", "-c", "20", "--json", json.toString()), cleanEnv());
        awaitFirstRow(ResultFiles.journalOf(json), List.of(p), "int");
        long signalled = System.nanoTime();
        assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor());
        int code = exit(p, 60, "the sweep after its first SIGINT");
        System.out.printf("MultiProcessTest: stopped %.1f s after SIGINT in the 32 MiB row's checks%n",
                (System.nanoTime() - signalled) / 1e9);
        assertEquals(130, code, err("int"));
        String err = err("int");
        assertTrue(err.contains("SIGINT: stopping; the rows measured so far are kept"), err);
        assertTrue(err.matches("(?s).*stopped by SIGINT at '#\\d+ all_reduce 32 MiB (out-of-place|in-place)'.*"),
                "names the size it stopped in: " + err);
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
        ResultDocument doc = ResultFiles.read(json);
        assertEquals("interrupted", doc.status());
        assertEquals(List.of(1L << 20), doc.rows().stream().map(ResultRow::sizeBytes).toList(), "the 1 MiB row is kept");
        assertTrue(out("int").contains("# Collective test stopped: all_reduce_perf (interrupted)"), out("int"));
    }

    /** Whether SIGINT is ignored in this process (SigIgn of /proc/self/status), as its children would inherit. */
    private static boolean sigintIgnored() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring(7).trim(), 16) & (1L << 1)) != 0; // SIGINT is 2: bit 1
            }
        }
        return false;
    }

    /** A size that cannot fit one rank's memory: that rank says so with the -e that fits, and every rank stops at once. */
    @Test
    void aSizeThatCannotFitOneRanksMemoryStopsEveryRankNamingIt() throws Exception {
        int port = freePortPair();
        Path json = dir.resolve("mem.json");
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            List<String> cmd = sweep("--backend", "socket", "-b", "64M", "-e", "64M", "-n", "1", "-T", "600",
                    "--json", json.toString());
            if (r == 2) {
                // rank 2's JVM has a fifth of the others' memory
                cmd.set(1, "-Xmx80m");
            }
            ranks.add(start("mem" + r, cmd, torchrun(r, 3, port)));
        }
        for (int r = 0; r < 3; r++) {
            // -T 600: only rank 2's own report can stop the others within the wait
            assertEquals(2, exit(ranks.get(r), 60, "rank " + r), "rank " + r + ": " + err("mem" + r));
            assertTrue(err("mem" + r).contains("rank 2: -e 64 MiB needs 192 MiB of JVM direct memory"),
                    "rank " + r + ": " + err("mem" + r));
            assertFalse(err("mem" + r).contains("\tat "), err("mem" + r));
        }
        assertFalse(Files.exists(json), "nothing ran, so no result");
    }

    /** SIGKILL leaves only the journal: `ncclbench recover` makes it a result with the rows measured. */
    @Test
    void aJournalLeftBySigkillIsRecovered() throws Exception {
        Path json = dir.resolve("killed.json");
        Path journal = ResultFiles.journalOf(json);
        Process p = start("killed", sweep("--backend", "socket", "--ranks", "2", "-b", "1M", "-e", "32M", "-f", "2",
                "-n", "20", "--json", json.toString()), cleanEnv());
        awaitFirstRow(journal, List.of(p), "killed");
        p.destroyForcibly();
        exit(p, 30, "the killed sweep");
        assertFalse(Files.exists(json), "no result: the process never finished");
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = dev.ncclbench.cli.Main.run(new String[] {"recover", journal.toString()}, new java.io.PrintWriter(out),
                new java.io.PrintWriter(err));
        assertEquals(0, code, err.toString());
        assertTrue(out.toString().contains("rows recovered into " + json), out.toString());
        ResultDocument doc = ResultFiles.read(json);
        assertEquals("incomplete", doc.status());
        assertTrue(doc.rows().size() >= 1);
        assertFalse(Files.exists(journal), "the journal is folded into the result");
        int again = dev.ncclbench.cli.Main.run(new String[] {"recover", journal.toString()}, new java.io.PrintWriter(out),
                new java.io.PrintWriter(err));
        assertEquals(2, again, "a journal that is gone is a usage error: " + err);
    }

    /** SIGTERM to one rank only: it stops by itself, and the others stop at once naming it, not after -T. */
    @Test
    void sigtermToOneRankStopsEveryRankNamingIt() throws Exception {
        int port = freePortPair();
        Path json = dir.resolve("one.json");
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            // -T far beyond the test's own limit: only the store's verdict can stop the others in time
            ranks.add(start("one" + r, sweep("--backend", "socket", "-b", "1M", "-e", "64M", "-f", "2", "-n", "20",
                    "-T", "600", "--json", json.toString()), torchrun(r, 3, port)));
        }
        awaitFirstRow(ResultFiles.journalOf(json), ranks, "one0");
        assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(ranks.get(1).pid())).start().waitFor());
        for (int r = 0; r < 3; r++) {
            assertEquals(143, exit(ranks.get(r), 60, "rank " + r + " after SIGTERM to rank 1"), "rank " + r + ": " + err("one" + r));
            assertTrue(err("one" + r).contains("rank 1 stopped by SIGTERM"), "rank " + r + ": " + err("one" + r));
        }
        ResultDocument doc = ResultFiles.read(json);
        assertEquals("interrupted", doc.status());
        assertTrue(doc.rows().size() >= 1);
    }

    @Test
    void openMpiRunsFourProcessesThatFindEachOther() throws Exception {
        String mpirun = mpirun();
        Path json = dir.resolve("mpi.json");
        List<String> cmd = new ArrayList<>(List.of(mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "4"));
        cmd.addAll(sweep("--backend", "socket", "-b", "1M", "-e", "16M", "-f", "2", "-n", "3", "--json", json.toString()));
        Map<String, String> env = cleanEnv();
        Process p = start("mpirun", cmd, env);
        int code = exit(p, WAIT_SECONDS, "mpirun");
        assertEquals(0, code, err("mpirun") + out("mpirun"));
        String out = out("mpirun");
        assertEquals(1, count(out, "# Collective test starting: all_reduce_perf"), "one table, from rank 0:\n" + out);
        assertEquals(5, out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count(), out);
        assertTrue(out.contains("# Out of bounds values : 0 OK"), out);
        assertGoodResult(json, 4, 5);
        assertTrue(ResultFiles.read(json).environment().keySet().stream().anyMatch(k -> k.startsWith("OMPI_COMM_WORLD")),
                "the launcher's variables are recorded in the result");
    }

    @Test
    void torchrunStyleVariables() throws Exception {
        int port = freePortPair();
        Path json = dir.resolve("torch.json");
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            ranks.add(start("torch" + r, sweep("--backend", "socket", "-b", "1M", "-e", "4M", "-f", "2", "-n", "3",
                    "--collective", "all_reduce,all_gather", "--json", json.toString()), torchrun(r, 3, port)));
        }
        for (int r = 0; r < 3; r++) {
            assertEquals(0, exit(ranks.get(r), WAIT_SECONDS, "rank " + r), "rank " + r + ": " + err("torch" + r));
        }
        assertGoodResult(json, 3, 6);
        assertEquals("", out("torch1"), "only rank 0 prints the table");
        assertTrue(out("torch0").contains("all_gather_perf"), out("torch0"));
        // no NCCLBENCH_TOKEN: the header and the JSON say who could have joined
        assertTrue(out("torch0").contains("# " + JobSecret.NOT_AUTHENTICATED), out("torch0"));
        assertTrue(ResultFiles.read(json).notes().contains(JobSecret.NOT_AUTHENTICATED), "the JSON's notes say so too");
    }

    @Test
    void slurmStyleVariables() throws Exception {
        Path json = dir.resolve("slurm.json");
        String job = "t" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Map<String, String> env = cleanEnv();
            env.put("SLURM_PROCID", Integer.toString(r));
            env.put("SLURM_NTASKS", "2");
            env.put("SLURM_LOCALID", Integer.toString(r));
            env.put("SLURM_NNODES", "1");
            env.put("SLURM_JOB_ID", job);
            env.put("SLURM_STEP_ID", "0");
            ranks.add(start("slurm" + r, sweep("--backend", "socket", "-b", "1M", "-e", "4M", "-f", "2", "-n", "3",
                    "--json", json.toString()), env));
        }
        for (int r = 0; r < 2; r++) {
            assertEquals(0, exit(ranks.get(r), WAIT_SECONDS, "rank " + r), "rank " + r + ": " + err("slurm" + r));
        }
        assertGoodResult(json, 2, 3);
    }

    @Test
    void killingOneRankMidSweepFailsTheOthersAndKeepsTheRows() throws Exception {
        int port = freePortPair();
        Path json = dir.resolve("lost.json");
        Path journal = ResultFiles.journalOf(json);
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            ranks.add(start("lost" + r, sweep("--backend", "socket", "-b", "1M", "-e", "64M", "-f", "2", "-n", "20",
                    "-T", "20", "--json", json.toString()), torchrun(r, 3, port)));
        }
        // wait for rank 0 to journal its first row: the header line, then a row
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            if (Files.exists(journal) && Files.readAllLines(journal).stream().filter(l -> l.contains("\"collective\"")).count() >= 1) {
                break;
            }
            for (int r = 0; r < 3; r++) {
                assertTrue(ranks.get(r).isAlive(), "rank " + r + " ended before the kill: " + err("lost" + r));
            }
            assertTrue(System.nanoTime() < deadline, "no row journalled within 60 s: " + err("lost0"));
            Thread.sleep(50);
        }
        ranks.get(2).destroyForcibly();
        long killedAt = System.nanoTime();
        int code0 = exit(ranks.get(0), 30, "rank 0 after rank 2 was killed");
        int code1 = exit(ranks.get(1), 30, "rank 1 after rank 2 was killed");
        double seconds = (System.nanoTime() - killedAt) / 1e9;
        String err0 = err("lost0");
        // whichever survivor noticed first, and whatever its neighbour's abort looked like, both name rank 2
        assertEquals(4, code0, "rank 0: " + err0);
        assertEquals(4, code1, "rank 1: " + err("lost1"));
        assertTrue(err0.contains("rank 2 lost"), "rank 0 names the lost rank: " + err0);
        assertTrue(err("lost1").contains("rank 2 lost"), "rank 1 names the lost rank: " + err("lost1"));
        assertFalse(err0.contains("\tat "), "no stack trace: " + err0);
        assertTrue(seconds < 30, "took " + seconds + " s");
        System.out.println("MultiProcessTest: ranks 0 and 1 exited " + code0 + " and " + code1 + " within "
                + String.format(java.util.Locale.ROOT, "%.1f", seconds) + " s of the kill; rank 0 said: " + err0.strip().replace("\n", " | "));

        ResultDocument doc = ResultFiles.read(json);
        assertEquals("failed", doc.status(), "status");
        assertTrue(doc.error() != null && doc.error().contains("rank 2"), "error names rank 2: " + doc.error());
        assertTrue(doc.rows().size() >= 1, "the rows measured before the kill are kept");
        assertEquals(1L << 20, doc.rows().get(0).sizeBytes());
        assertEquals(0L, doc.rows().get(0).outOfPlace().wrong());
        assertFalse(Files.exists(journal), "the journal is folded into the final file");
        assertTrue(out("lost0").lines().anyMatch(l -> l.startsWith("     1048576  ")), "the table printed the row before the kill: " + out("lost0"));
    }

    /**
     * A rank that hangs (SIGSTOP: alive, sockets open, silent) trips the -T watchdog: exit 5 naming it. -T 8, not 3:
     * on a machine running other builds (load 18 on 2 cores) a healthy rank took over 3 s to reach the first size,
     * and the watchdog fired before the stop this test is about.
     */
    @Test
    void aHungRankTripsTheTimeoutOnTheOthers() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
                "no kill(1) to send SIGSTOP");
        int port = freePortPair();
        Path json = dir.resolve("hang.json");
        Path journal = ResultFiles.journalOf(json);
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            ranks.add(start("hang" + r, sweep("--backend", "socket", "-b", "1M", "-e", "64M", "-f", "2", "-n", "20",
                    "-T", "8", "--json", json.toString()), torchrun(r, 3, port)));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(journal) && Files.readAllLines(journal).stream().anyMatch(l -> l.contains("\"collective\"")))) {
            assertTrue(ranks.get(2).isAlive(), "rank 2 ended early: " + err("hang2"));
            assertTrue(System.nanoTime() < deadline, "no row journalled within 60 s: " + err("hang0"));
            Thread.sleep(50);
        }
        String pid = Long.toString(ranks.get(2).pid());
        try {
            assertEquals(0, new ProcessBuilder("kill", "-STOP", pid).start().waitFor());
            long stoppedAt = System.nanoTime();
            int code0 = exit(ranks.get(0), 40, "rank 0 after rank 2 hung");
            int code1 = exit(ranks.get(1), 40, "rank 1 after rank 2 hung");
            double seconds = (System.nanoTime() - stoppedAt) / 1e9;
            String err0 = err("hang0");
            System.out.println("MultiProcessTest: with rank 2 stopped, ranks 0 and 1 exited " + code0 + " and " + code1
                    + " after " + String.format(java.util.Locale.ROOT, "%.1f", seconds) + " s; rank 0 said: "
                    + err0.strip().replace("\n", " | "));
            // whether the store's gather or a mesh watchdog fires first, both survivors name rank 2 the same way
            assertEquals(5, code0, err0);
            assertEquals(5, code1, err("hang1"));
            assertTrue(err0.contains("rank 2 did not reach '"), "names the hung rank: " + err0);
            assertTrue(err("hang1").contains("rank 2 did not reach '"), "names the hung rank: " + err("hang1"));
            ResultDocument doc = ResultFiles.read(json);
            assertEquals("timeout", doc.status());
            assertTrue(doc.rows().size() >= 1);
        } finally {
            new ProcessBuilder("kill", "-CONT", pid).start().waitFor();
            ranks.get(2).destroyForcibly();
        }
    }

    @Test
    void anIntruderWithAnotherSecretIsRefusedAndTheJobWaitsForItsRealRankOne() throws Exception {
        int port = freePortPair();
        Path json = dir.resolve("job.json");
        String secret = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
        Map<String, String> env0 = torchrun(0, 2, port);
        env0.put("NCCLBENCH_TOKEN", secret);
        List<String> job = sweep("--backend", "socket", "-b", "1M", "-e", "8M", "-f", "2", "-n", "5", "-T", "60",
                "--json", json.toString());
        Process rank0 = start("job0", job, env0);
        // the intruder claims rank 1 with another secret before the real rank 1 exists: it retries until rank 0's
        // store is up, and is refused there
        Map<String, String> intruderEnv = torchrun(1, 2, port);
        intruderEnv.put("NCCLBENCH_TOKEN", "an-intruder-guessing-the-secret-0123456789");
        Process intruder = start("intruder", sweep("--backend", "socket", "-b", "1M", "-e", "1M", "-n", "1", "-T", "60",
                "--json", dir.resolve("intruder.json").toString()), intruderEnv);
        int intruderCode = exit(intruder, WAIT_SECONDS, "the intruder");
        String intruderErr = err("intruder");
        assertEquals(2, intruderCode, intruderErr);
        assertTrue(intruderErr.contains("refused rank 1: wrong job token"), "says why: " + intruderErr);
        assertEquals(1, intruderErr.strip().lines().count(), "one line: " + intruderErr);
        // only now the real rank 1: rank 0 has been waiting for it
        Map<String, String> env1 = torchrun(1, 2, port);
        env1.put("NCCLBENCH_TOKEN", secret);
        Process rank1 = start("job1", job, env1);
        assertEquals(0, exit(rank0, WAIT_SECONDS, "rank 0"), "rank 0: " + err("job0"));
        assertEquals(0, exit(rank1, WAIT_SECONDS, "rank 1"), "rank 1: " + err("job1"));
        assertGoodResult(json, 2, 4);
        assertFalse(Files.exists(dir.resolve("intruder.json")), "the intruder wrote no result");
        assertFalse(out("job0").contains("not authenticated"), out("job0"));
        assertFalse(ResultFiles.read(json).notes().contains(JobSecret.NOT_AUTHENTICATED));
    }
}
