package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.backend.nccl.NcclBackend;
import dev.ncclbench.doctor.Doctor;
import dev.ncclbench.doctor.DoctorOptions;
import dev.ncclbench.env.Host;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultFiles;
import dev.ncclbench.results.ResultRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * `ncclbench preflight` end to end on loopback with the socket backend (two thread ranks, tiny sizes): doctor, the
 * sweep, the gate, the verdict line and exit code; a baseline recorded from one run, then an identical rerun gated
 * against it; a doctor failure that skips a single process's sweep (a real JVM, for its environment).
 */
class PreflightCommandTest {
    @TempDir
    static Path dir;
    /** this host's doctor errors, left out so that the loopback runs judge the sweep and the gate, not the host */
    static List<String> hostErrors;

    record Result(int code, String out, String err) {
        String lastLine() {
            List<String> l = out.lines().toList();
            return l.isEmpty() ? "" : l.get(l.size() - 1);
        }
    }

    static Result cli(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    /** Small sizes only: with a one-run baseline latency is not judged, so no load on this machine fails a rerun. */
    static List<String> preflight(String... more) {
        List<String> a = new ArrayList<>(List.of("preflight", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e",
                "64K", "-f", "8", "-n", "5", "-w", "2", "--out", dir.resolve("runs").toString(), "--dir",
                dir.resolve("baselines").toString()));
        hostErrors.forEach(id -> a.addAll(List.of("--doctor-ignore", id)));
        a.addAll(List.of(more));
        return a;
    }

    @BeforeAll
    static void judgeThisHost() {
        hostErrors = Doctor.run(DoctorOptions.live(Host.of(System.getenv()))).findings().stream().filter(f -> f.severity() == Severity.ERROR)
                .map(Finding::ruleId).distinct().toList();
    }

    /**
     * A fresh node has no baseline: preflight passes on doctor, the sweep and the curve check (exit 0: a prolog must
     * not drain every new node), and its line says first that nothing was compared, never "within tolerance".
     */
    @Test
    void doctorThenTheSweepThenTheCurveCheckPassAndSayNoBaselineWasCompared() {
        // a folder of its own: another test records a baseline in the shared one
        List<String> args = preflight();
        Path fresh = dir.resolve("fresh-node-baselines");
        args.set(args.indexOf("--dir") + 1, fresh.toString());
        Result r = cli(args);
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("# doctor: "), r.out());
        assertTrue(r.out().contains("# gate: ") && r.out().contains("with no baseline: none found, nothing compared"),
                r.out());
        assertTrue(r.lastLine().startsWith("PASS: no baseline compared: " + fresh
                + " does not exist (this run: socket, 1 node, 2 ranks"), r.lastLine());
        assertTrue(r.lastLine().contains("; record one: ncclbench baseline record ")
                && r.lastLine().contains("; the curve check found nothing that degrades the path; doctor: "),
                r.lastLine());
        assertFalse(r.lastLine().contains("within noise and tolerance"), r.lastLine());
        // one verdict line: the gate's table is printed without its own, which preflight's line carries
        assertEquals(List.of(r.lastLine()), r.out().lines()
                .filter(l -> l.matches("(PASS|DEGRADED|FAIL|NOTHING_TO_COMPARE|NO_BASELINE): .*")).toList(), r.out());
    }

    @Test
    void anIdenticalRerunPassesAgainstABaselineOfOneRun() throws Exception {
        Result first = cli(preflight("--no-doctor", "--json", "-"));
        assertEquals(0, first.code(), first.err());
        JsonNode doc = new ObjectMapper().readTree(first.out());
        assertTrue(doc.get("doctor").isNull(), "--no-doctor: " + first.out());
        String run = doc.get("gate").get("run").asText();
        Path baselines = dir.resolve("baselines");
        Result rec = cli(List.of("baseline", "record", "--dir", baselines.toString(), "--name", "loopback", run));
        assertEquals(0, rec.code(), rec.err());

        Path junit = dir.resolve("preflight.xml");
        Path md = dir.resolve("preflight.md");
        Result again = cli(preflight("--json", "-", "--junit", junit.toString(), "--markdown", md.toString()));
        assertEquals(0, again.code(), again.out() + again.err());
        JsonNode j = new ObjectMapper().readTree(again.out()); // --json: stdout is the one JSON document
        assertEquals("ncclbench.preflight", j.get("kind").asText());
        assertEquals("PASS", j.get("verdict").asText());
        assertEquals(0, j.get("exit_code").asInt());
        assertEquals("loopback", j.get("gate").get("baseline").asText());
        assertTrue(j.get("doctor").get("findings").isArray(), again.out());
        assertEquals(hostErrors.size(), j.get("doctor").get("ignored").size(), again.out());
        String line = again.err().lines().reduce((a, b) -> b).orElse("");
        assertTrue(line.startsWith("PASS: 3 sizes within noise and tolerance of baseline loopback, each placement on its own; doctor: "), line);
        assertEquals(line, j.get("line").asText());

        Document x = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        assertEquals("0", x.getDocumentElement().getAttribute("failures"));
        assertEquals(2, x.getElementsByTagName("testsuite").getLength(), "doctor's suite and the gate's");
        assertEquals("verdict", ((org.w3c.dom.Element) x.getElementsByTagName("testcase").item(0)).getAttribute("name"));
        String mdText = Files.readString(md);
        assertTrue(mdText.startsWith("## ncclbench preflight: PASS\n\n" + line.replace("|", "\\|")), mdText);
        assertTrue(mdText.contains("### Doctor") && mdText.contains("## ncclbench gate: PASS"), mdText);
    }

    @Test
    void anUnknownDoctorRuleIsOneUsageLine() {
        Result r = cli(List.of("preflight", "--doctor-ignore", "NO-SUCH-RULE", "--out", dir.resolve("none").toString()));
        assertEquals(2, r.code());
        assertEquals("ncclbench: --doctor-ignore NO-SUCH-RULE: no doctor rule has that id (see ncclbench rules)",
                r.err().strip());
        assertEquals("", r.out());
        assertFalse(Files.exists(dir.resolve("none")), "nothing ran");
        Result rank = cli(List.of("preflight", "--rank", "one", "--world-size", "2"));
        assertEquals(2, rank.code());
        assertEquals("ncclbench: Invalid value for option '--rank': 'one' is not an int (see 'ncclbench preflight --help')",
                rank.err().strip());
    }

    /**
     * README promises -e 64M on sockets; `--backend auto` on a host without a usable GPU runs the socket backend,
     * so the default sweep stops there too (8 x 4^11 = 32M is its last size at or under 64M), not at 1G.
     */
    @Test
    void withoutAGpuTheDefaultSweepEndsAtTheSocketSize() throws Exception {
        assumeFalse(new NcclBackend().readiness(null, Host.of(System.getenv())).ready(), "NCCL can run here: auto would run it");
        Path out = dir.resolve("auto-runs");
        // the size flags are the defaults; one timed iteration and two ranks keep it short
        Result r = cli(List.of("preflight", "--no-doctor", "--ranks", "2", "-n", "1", "-w", "0", "--out", out.toString(),
                "--dir", dir.resolve("none").toString(), "--json", "-"));
        assertTrue(r.code() == 0 || r.code() == 6, r.out() + r.err());
        String run = new ObjectMapper().readTree(r.out()).get("gate").get("run").asText();
        ResultDocument doc = ResultFiles.read(Path.of(run));
        assertEquals("socket", doc.backend());
        assertEquals("auto", doc.backendAsked());
        assertEquals(64L << 20, doc.spec().range().maxBytes());
        assertEquals(32L << 20, doc.rows().stream().mapToLong(ResultRow::sizeBytes).max().orElse(0));
    }

    /** A real JVM running ncclbench with NCCL_SOCKET_IFNAME set (doctor judges the process's own environment). */
    static ProcessBuilder jvm(String ifname, Path err, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "dev.ncclbench.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("NCCL_") || k.startsWith("OMPI_") || k.startsWith("PMI")
                || k.startsWith("SLURM_") || List.of("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT").contains(k));
        pb.environment().put("NCCL_SOCKET_IFNAME", ifname);
        return pb;
    }

    static String stdout(Process p, Path err) throws Exception {
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes());
        // a guard, not a timing: a rank that never ends fails here instead of hanging the suite
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "did not exit: " + out + Files.readString(err));
        return out;
    }

    static String last(String out) {
        List<String> lines = out.lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /**
     * Two processes with NCCL_SOCKET_IFNAME=lo: doctor's SOCKET-LOOPBACK-ONLY is an error that does not degrade the
     * path, so each rank fails, but with a peer it still joins the sweep (which runs fine on loopback) rather than
     * leaving the other at the rendezvous.
     */
    @Test
    void aDoctorFailureWithPeersStillJoinsTheSweep() throws Exception {
        int port = freePort();
        Process[] p = new Process[2];
        Path[] err = new Path[2];
        for (int rank = 1; rank >= 0; rank--) {
            err[rank] = dir.resolve("join-" + rank + ".err");
            p[rank] = jvm("lo", err[rank], "preflight", "--backend", "socket", "--world-size", "2", "--rank",
                    String.valueOf(rank), "--rendezvous", "127.0.0.1:" + port, "-b", "1K", "-e", "4K", "-n", "3", "-w",
                    "1", "--out", dir.resolve("join-runs").toString(), "--dir", dir.resolve("none").toString()).start();
        }
        for (int rank = 0; rank < 2; rank++) {
            String out = stdout(p[rank], err[rank]);
            assertEquals(3, p[rank].exitValue(), "rank " + rank + ": " + out + Files.readString(err[rank]));
            assertTrue(last(out).startsWith("FAIL: doctor SOCKET-LOOPBACK-ONLY: NCCL_SOCKET_IFNAME=lo makes NCCL"
                    + " bootstrap on loopback"), "rank " + rank + ": " + out);
            assertFalse(out.contains("the sweep did not run"), out);
            if (rank == 0) {
                assertTrue(out.contains("# Collective test starting") && out.contains("# gate: "), "the sweep ran: " + out);
            }
        }
    }

    /** A free port on 127.0.0.1 below the ephemeral range (one there may be taken by any outgoing connection). */
    static int freePort() throws java.io.IOException {
        java.net.InetAddress lo = java.net.InetAddress.getByName("127.0.0.1");
        int[] eph = dev.ncclbench.rendezvous.Ports.ephemeralRange();
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 10000 + random.nextInt(eph[0] - 10000 - 1);
            try (java.net.ServerSocket a = new java.net.ServerSocket(port, 1, lo);
                 java.net.ServerSocket b = new java.net.ServerSocket(port + 1, 1, lo)) {
                return port;
            } catch (java.io.IOException busy) {
                // try another
            }
        }
        throw new java.io.IOException("no two consecutive free ports on 127.0.0.1 below " + eph[0]);
    }

    @Test
    void aDoctorFailureSkipsASingleProcessSweep() throws Exception {
        Path out = dir.resolve("fail-runs");
        Path err = dir.resolve("fail.err");
        Process p = jvm("zz-no-such-nic", err, "preflight", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e",
                "1K", "--out", out.toString()).start();
        String stdout = stdout(p, err);
        assertEquals(3, p.exitValue(), stdout + Files.readString(err));
        List<String> lines = stdout.lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.matches("  ERROR +SOCKET-IFNAME-NO-MATCH +NCCL_SOCKET_IFNAME=zz-no-such-nic .*")),
                stdout);
        String last = lines.get(lines.size() - 1);
        assertTrue(last.startsWith("FAIL: doctor SOCKET-IFNAME-NO-MATCH: NCCL_SOCKET_IFNAME=zz-no-such-nic")
                && last.contains("; the sweep did not run"), last);
        assertFalse(stdout.contains("# Collective test starting"), "the sweep was skipped: " + stdout);
        try (Stream<Path> s = Files.exists(out) ? Files.list(out) : Stream.empty()) {
            assertEquals(0, s.count(), "no run folder");
        }
    }
}
