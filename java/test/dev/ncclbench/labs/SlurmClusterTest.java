package dev.ncclbench.labs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real Slurm (scripts/lab/slurm.sh: slurmctld, munge, one slurmd per network namespace node0..node3) brought up
 * once: srun with no rendezvous flag finds rank 0 from the node list; the prolog drains its own node with the
 * reason; an sbatch sweep cancelled with scancel keeps its rows, status interrupted. The jar is not built while
 * tests run, so the jobs get a manifest-only jar whose Class-Path is this JVM's (as NCCLBENCH_JAR) and a launcher
 * for srun. Skips with the reason without root or without slurm-wlm and munge.
 */
@Tag("lab")
class SlurmClusterTest {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();
    private static final Path LAB = BASE.resolve("scripts/lab/slurm.sh");
    private static final Pattern ROW = Pattern.compile("(?m)^\\s+\\d+\\s+\\d+\\s+float\\s+sum\\s");
    private static Path dir;
    private static Path jar;
    private static Path launcher;
    private static boolean up;

    record Run(int code, String output) {
    }

    @BeforeAll
    static void clusterUp() throws Exception {
        assumeTrue(LabScript.available("id", "-u") && run(List.of("id", "-u"), 10).output.trim().equals("0"),
                "needs root: the Slurm lab runs daemons in network namespaces");
        assumeTrue(LabScript.available("slurmctld", "-V") && LabScript.available("munged", "-V")
                        && LabScript.available("sh", "-c", "command -v srun sbatch scancel scontrol"),
                "slurm-wlm and munge are not installed (apt-get install slurm-wlm munge; .ci/run does)");
        dir = Files.createTempDirectory("slurm-test-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        jar = dir.resolve("ncclbench.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "dev.ncclbench.cli.Main");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, Stream.of(classPath().split(File.pathSeparator))
                .map(p -> Path.of(p).toUri().toString()).collect(Collectors.joining(" ")));
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o, m)) {
            j.flush();
        }
        launcher = dir.resolve("ncclbench");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + java() + "' -Xmx512m -XX:+UseSerialGC -jar '" + jar + "' \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run r = run(List.of("bash", LAB.toString(), "up", "--nodes", "4"), 60);
        assumeTrue(r.code != 3, "the Slurm lab cannot run here: " + r.output.trim());
        assertEquals(0, r.code, r.output);
        up = true;
    }

    @AfterAll
    static void clusterDown() throws Exception {
        if (dir == null) {
            return;
        }
        if (up) {
            Run r = run(List.of("bash", LAB.toString(), "down"), 60);
            assertEquals(0, r.code, r.output);
            assertFalse(run(List.of("ip", "netns", "list"), 10).output.contains("slurm-node"), "down leaves no namespace");
            assertFalse(Files.exists(Path.of("/run/slurm-lab")), "down leaves no files");
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void srunWithNoRendezvousFindsRankZeroOnTheFirstNode() throws Exception {
        Path json = dir.resolve("srun.json");
        Run r = run(List.of("srun", "-N", "4", "--ntasks-per-node=1", "--export=ALL,NCCL_SOCKET_IFNAME=rdma0",
                launcher.toString(), "sweep", "--backend", "socket", "-b", "1M", "-e", "8M", "-f", "2", "-n", "3", "-w", "1",
                "--no-progress", "--json", json.toString()), 150);
        assertEquals(0, r.code, r.output);
        assertEquals(1, r.output.split("# Using devices", -1).length - 1, "one table, from rank 0: " + r.output);
        for (int k = 0; k < 4; k++) {
            assertTrue(Pattern.compile("Rank +" + k + " Group +0 Pid +\\d+ on +node" + k + " device rdma0:10\\.247\\.2\\."
                    + (k + 1)).matcher(r.output).find(), "rank " + k + " on node" + k + ": " + r.output);
        }
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        assertEquals(4, d.get("rows").size(), d.toString());
    }

    @Test
    void prologDrainsItsOwnNodeNamingTheInterface() throws Exception {
        Path prolog = dir.resolve("prolog.sh");
        Files.writeString(prolog, "#!/bin/sh\nexport NCCLBENCH_JAR='" + jar + "' NCCL_SOCKET_IFNAME=doesnotexist0"
                + " NCCLBENCH_JAVA='" + java() + "' NCCLBENCH_OUT='" + dir + "/prolog/'\"$SLURMD_NODENAME\"\n"
                + "exec '" + BASE.resolve("scripts/launch/slurm-prolog.sh") + "'\n");
        Files.setPosixFilePermissions(prolog, PosixFilePermissions.fromString("rwxr-xr-x"));
        try {
            assertEquals(0, run(List.of("bash", LAB.toString(), "prolog", prolog.toString()), 30).code);
            Run job = run(List.of("srun", "-N", "1", "-w", "node3", "true"), 60);
            assertNotEquals(0, job.code, "the job must not run on a node that failed its prolog: " + job.output);
            String node = run(List.of("scontrol", "show", "node", "node3"), 10).output;
            assertTrue(node.contains("State=IDLE+DRAIN") || node.contains("DRAIN"), node);
            assertTrue(Pattern.compile("Reason=ncclbench preflight: FAIL: doctor SOCKET-IFNAME-NO-MATCH: "
                    + "NCCL_SOCKET_IFNAME=doesnotexist0 matches none of the interfaces here \\(lo, eth0, rdma0\\)")
                    .matcher(node).find(), node);
        } finally {
            run(List.of("bash", LAB.toString(), "prolog", "none"), 30);
            run(List.of("scontrol", "update", "nodename=node3", "state=resume"), 10);
        }
    }

    /** A check that could not run (no jar here) never passes silently: the node's Comment says so, then it is left. */
    @Test
    void aPrologThatCouldNotCheckSaysSoInTheNodesComment() throws Exception {
        Path prolog = dir.resolve("prolog-nojar.sh");
        Files.writeString(prolog, "#!/bin/sh\nexport NCCLBENCH_JAR='" + dir + "/absent.jar' NCCLBENCH_OUT='" + dir
                + "/prolog-nojar/'\"$SLURMD_NODENAME\"\nexec '" + BASE.resolve("scripts/launch/slurm-prolog.sh") + "'\n");
        Files.setPosixFilePermissions(prolog, PosixFilePermissions.fromString("rwxr-xr-x"));
        try {
            assertEquals(0, run(List.of("bash", LAB.toString(), "prolog", prolog.toString()), 30).code);
            Run job = run(List.of("srun", "-N", "1", "-w", "node2", "true"), 60);
            assertEquals(0, job.code, "NCCLBENCH_UNCHECKED=leave (the default) lets the job run: " + job.output);
            String node = run(List.of("scontrol", "show", "node", "node2"), 10).output;
            assertTrue(node.contains("Comment=ncclbench prolog: no check ran: no jar at " + dir + "/absent.jar"), node);
            assertFalse(node.contains("DRAIN"), node);
        } finally {
            run(List.of("bash", LAB.toString(), "prolog", "none"), 30);
            run(List.of("scontrol", "update", "nodename=node2", "comment="), 10);
        }
    }

    @Test
    void sbatchSweepCancelledKeepsItsRowsAsInterrupted() throws Exception {
        Path json = dir.resolve("sbatch.json");
        Path out = dir.resolve("sbatch.out");
        Run sub = run(List.of("sbatch", "--parsable", "-N", "4", "--ntasks-per-node=1", "-o", out.toString(),
                "--export=ALL,NCCL_SOCKET_IFNAME=rdma0,NCCLBENCH_JAR=" + jar + ",NCCLBENCH_JAVA_OPTS=-Xmx512m",
                BASE.resolve("scripts/launch/sbatch-sweep.sh").toString(), "--backend", "socket", "-b", "1M", "-e", "64M",
                "-f", "2", "-n", "20", "-w", "1", "--no-progress", "--json", json.toString()), 30);
        assertEquals(0, sub.code, sub.output);
        String job = sub.output.trim().split(";")[0];
        // scancel once rank 0 printed its first row: the rows before it must survive
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!(Files.exists(out) && ROW.matcher(Files.readString(out, StandardCharsets.UTF_8)).find())) {
            String so = Files.exists(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
            assertTrue(System.nanoTime() < deadline, "no row within 90 s: " + so);
            assertFalse(run(List.of("squeue", "-h", "-j", job), 10).output.isBlank(), "the job ended before a row: " + so);
            Thread.sleep(200);
        }
        assertEquals(0, run(List.of("scancel", job), 10).code);
        while (!run(List.of("squeue", "-h", "-j", job), 10).output.isBlank()) {
            assertTrue(System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(30), "job " + job + " still in squeue");
            Thread.sleep(200);
        }
        String log = Files.readString(out, StandardCharsets.UTF_8);
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        assertEquals("interrupted", d.get("status").asText(), log);
        assertTrue(d.get("rows").size() >= 1 && d.get("rows").size() < 9, log);
        assertTrue(log.contains("# Run status: interrupted"), log);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The real class path: surefire forks with a manifest-only jar and says the real one here. */
    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    private static Run run(List<String> cmd, int seconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(cmd)).redirectErrorStream(true);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("SLURM_") || k.startsWith("NCCL") || k.startsWith("OMPI_")
                || k.startsWith("PMI") || List.of("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT").contains(k));
        pb.environment().clear();
        pb.environment().putAll(env);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Path log = Files.createTempFile("slurm-run-", ".log");
        try {
            pb.redirectOutput(log.toFile());
            Process p = pb.start();
            p.getOutputStream().close();
            boolean ended = p.waitFor(seconds, TimeUnit.SECONDS);
            if (!ended) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (!ended) {
                throw new AssertionError(String.join(" ", cmd) + " did not end within " + seconds + " s: " + output);
            }
            return new Run(p.exitValue(), output);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
