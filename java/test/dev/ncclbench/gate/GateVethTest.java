package dev.ncclbench.gate;

import dev.ncclbench.CliRun;
import dev.ncclbench.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate on real runs over a real link: two network namespaces joined by a veth pair shaped with tbf, one rank
 * in each. A baseline of one run at 800 Mbit/s; the same link rerun passes; the link shaped to half the rate (400
 * Mbit/s) fails with exit 6 naming the sizes, in the table, JUnit, Markdown and Prometheus. Sizes from 1 MiB, so
 * busbw is rate-bound and a one-run baseline judges them. Root only (namespaces); skipped otherwise.
 *
 * <p>Half, not 20% slower (640 Mbit/s) as this test had it: the gate calls a change real only beyond its noise
 * band, at least the interquartile range of either side's iterations over their median, and on this shared 2-core VM
 * that range on the shaped veth reached 17-36% at 1 MiB and 5-39% at 4 MiB (2026-12-03, eight runs). A 20% slower
 * link (times x1.25) then reads "within noise", which is the gate being right about its evidence, and a fresh-clone
 * CI run and a run of this test alone failed it that way (-8.1% and -24.5% read as ok). Half the rate (times x2)
 * clears any band seen. Both gates run with a 30% tolerance: a whole rerun on the same rate shifted by 14% at 1 MiB
 * here (one-run baselines know no run-to-run spread), and the halved link reads -50% (-43% where the baseline itself
 * was CPU-bound). The gate's sensitivity to smaller changes is tested on samples whose spread is known
 * (SampleComparisonTest).
 */
@Tag("lab")
class GateVethTest {
    static final String NS_A = "gate-a-" + ProcessHandle.current().pid();
    static final String NS_B = "gate-b-" + ProcessHandle.current().pid();
    @TempDir
    static Path dir;

    @BeforeAll
    static void lab() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        Assumptions.assumeTrue(sh("ip", "-V") == 0 && sh("tc", "-V") == 0, "needs iproute2 (ip, tc)");
        must("ip", "netns", "add", NS_A);
        must("ip", "netns", "add", NS_B);
        // created inside the namespaces, so the fixed names cannot meet another test's links
        must("ip", "link", "add", "gate-va", "netns", NS_A, "type", "veth", "peer", "name", "gate-vb", "netns", NS_B);
        must("ip", "-n", NS_A, "addr", "add", "10.79.0.1/24", "dev", "gate-va");
        must("ip", "-n", NS_B, "addr", "add", "10.79.0.2/24", "dev", "gate-vb");
        for (String[] e : new String[][]{{NS_A, "gate-va"}, {NS_B, "gate-vb"}}) {
            must("ip", "-n", e[0], "link", "set", "lo", "up");
            must("ip", "-n", e[0], "link", "set", e[1], "up");
        }
        shape("add", "800mbit");
        for (String[] e : new String[][]{{NS_A, "gate-va"}, {NS_B, "gate-vb"}}) {
            awaitCarrier(e[0], e[1]);
        }
    }

    /**
     * A veth reports carrier (RUNNING) a moment after "link set up", and the socket backend, like NCCL >= 2.28,
     * skips interfaces that are not running: wait for the state itself (bounded), not for a fixed time.
     */
    static void awaitCarrier(String ns, String dev) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Process p = new ProcessBuilder("ip", "-n", ns, "-o", "link", "show", "dev", dev).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor();
            if (out.contains("LOWER_UP")) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, dev + " in " + ns + " has no carrier after 10 s: " + out);
            Thread.onSpinWait();
        }
    }

    @AfterAll
    static void cleanUp() throws Exception {
        sh("ip", "netns", "del", NS_A);
        sh("ip", "netns", "del", NS_B);
    }

    static void shape(String verb, String rate) throws Exception {
        for (String[] e : new String[][]{{NS_A, "gate-va"}, {NS_B, "gate-vb"}}) {
            must("tc", "-n", e[0], "qdisc", verb, "dev", e[1], "root", "tbf", "rate", rate, "burst", "256kb",
                    "latency", "20ms");
        }
    }

    /** One two-rank all_reduce sweep, rank 0 in NS_A and rank 1 in NS_B, each bound to its veth end. */
    static Path sweep(String name) throws Exception {
        Path json = dir.resolve(name + ".json");
        // The store listens inside NS_A, a namespace this test made and nothing else uses: no port can clash.
        // 1 and 4 MiB, not 2: on the tbf-shaped veth 2 MiB is bimodal from run to run (a rerun on the same rate
        // read -24.5% in a fresh-clone CI run; -18.7/-34.5/-20.2% against a 20% slower link), while 1 and 4 MiB
        // read within 1% of each other and -20.0% on the slower link every time: the shaper, not the gate.
        List<String> common = List.of("sweep", "--backend", "socket", "--world-size", "2", "--rendezvous",
                "10.79.0.1:29500", "-b", "1M", "-e", "4M", "-f", "4", "-n", "15", "-c", "0", "-T", "60", "--no-progress",
                "--out", dir.toString());
        Process r1 = rank(NS_B, "=gate-vb", common, List.of("--rank", "1", "--json", dir.resolve(name + "-r1.json")
                .toString()), name + "-r1");
        Process r0 = rank(NS_A, "=gate-va", common, List.of("--rank", "0", "--json", json.toString()), name + "-r0");
        boolean done = r0.waitFor(120, TimeUnit.SECONDS) & r1.waitFor(30, TimeUnit.SECONDS);
        if (!done) {
            r0.destroyForcibly();
            r1.destroyForcibly();
        }
        assertTrue(done && r0.exitValue() == 0 && r1.exitValue() == 0, name + ": rank 0 said "
                + Files.readString(dir.resolve(name + "-r0.out")) + " rank 1 said "
                + Files.readString(dir.resolve(name + "-r1.out")));
        return json;
    }

    static Process rank(String ns, String ifname, List<String> common, List<String> own, String log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:+UseSerialGC",
                "-cp", classPath(), "dev.ncclbench.cli.Main"));
        cmd.addAll(common);
        cmd.addAll(own);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(log + ".out").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("NCCL_") || k.startsWith("OMPI_") || k.startsWith("SLURM_"));
        pb.environment().put("NCCL_SOCKET_IFNAME", ifname);
        return pb.start();
    }

    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    @Test
    void aLinkAtHalfTheRateFailsTheGateAndARerunPasses() throws Exception {
        Path base = sweep("base");
        Path rerun = sweep("rerun");
        shape("change", "400mbit");
        Path slow = sweep("slow");
        shape("change", "800mbit");

        Path bl = dir.resolve("baselines");
        CliRun rec = cli("baseline", "record", "--dir", bl.toString(), "--name", "veth", base.toString());
        assertEquals(0, rec.code(), rec.err());

        // An operator of a shaped, shared link sets the tolerance to its run-to-run spread: a rerun of 1 MiB read
        // -14.4% (and 2 MiB -24.5%) on the same rate here, a whole run shifted, which a one-run baseline cannot know
        CliRun pass = cli("gate", "--dir", bl.toString(), "--tolerance", "30", rerun.toString());
        assertEquals(0, pass.code(), pass.out() + pass.err());
        assertTrue(pass.out().contains("PASS: 2 sizes within noise and tolerance of baseline veth"), pass.out());

        Path junit = dir.resolve("gate.xml");
        Path md = dir.resolve("gate.md");
        Path prom = dir.resolve("gate.prom");
        CliRun fail = cli("gate", "--dir", bl.toString(), "--tolerance", "30", "--junit", junit.toString(), "--markdown", md.toString(),
                "--prometheus", prom.toString(), slow.toString());
        assertEquals(6, fail.code(), fail.out() + fail.err());
        String verdict = fail.out().lines().reduce((a, b) -> b).orElse("");
        assertTrue(verdict.matches("REGRESSION: all_reduce [14] MiB busbw -[0-9]+\\.[0-9]%.*"), verdict);
        // The link has half the rate: busbw -50% in theory; on a shared 2-core host a size reads less or more, but
        // the drop the gate names is the link's order, not noise a few percent wide.
        assertTrue(largestDrop(verdict) >= 25.0, verdict);
        String x = Files.readString(junit, StandardCharsets.UTF_8);
        assertTrue(x.contains("<failure type=\"regression\" message=\"all_reduce "), x);
        String m = Files.readString(md, StandardCharsets.UTF_8);
        assertTrue(m.startsWith("## ncclbench gate: REGRESSION") && m.contains("**regression**"), m);
        String p = Files.readString(prom, StandardCharsets.UTF_8);
        assertTrue(p.contains("ncclbench_gate_verdict{verdict=\"regression\",baseline=\"veth\"} 1"), p);
        assertTrue(p.matches("(?s).*ncclbench_gate_size_failed\\{collective=\"all_reduce\",size=\"[0-9]+\",[^}]*status="
                + "\"regression\"[^}]*\\} 1.*"), p);
    }

    /** The largest "busbw -N.N%" in a verdict line, in percent. */
    static double largestDrop(String verdict) {
        return Pattern.compile("busbw -([0-9]+\\.[0-9])%").matcher(verdict).results()
                .mapToDouble(m -> Double.parseDouble(m.group(1))).max().orElse(0);
    }

    static int sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    static void must(String... cmd) throws Exception {
        assertEquals(0, sh(cmd), String.join(" ", cmd));
    }
}
