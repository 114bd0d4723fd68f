package dev.ncclbench.fleet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rank 0's coordinator with 1024 nodes: 1024 threads, each a simulated node on its own real loopback connection
 * speaking the real protocol (hello, orders, a heartbeat, reports), one of them never joining. It must take
 * 1023 and name the missing one, run a round of 511 pairs (a store per group, as in a real round) and collect
 * every report. Times are printed, not asserted.
 */
class CoordinatorScaleTest {
    static final int NODES = 1024;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void holds1024ConnectionsAndRunsARoundOfPairs() throws Exception {
        FleetSettings settings = new FleetSettings(List.of(1L << 20), false, 5, 1, 5, "socket", 1, null);
        int never = 777;
        try (Coordinator c = new Coordinator(InetAddress.getLoopbackAddress(), 0, "127.0.0.1", "t0k", NODES, settings)) {
            List<Thread> nodes = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int r = 0; r < NODES; r++) {
                if (r == never) {
                    continue;
                }
                int rank = r;
                Thread t = new Thread(() -> node(c.port(), rank), "sim-node-" + r);
                t.setDaemon(true);
                t.start();
                nodes.add(t);
            }
            // the wait ends when the 1023 have joined only if -T passes: the missing one is waited for that long
            Map<Integer, String> missing = c.awaitNodes();
            double joinS = (System.nanoTime() - t0) / 1e9;
            assertEquals(List.of(never), List.copyOf(missing.keySet()));
            assertTrue(missing.get(never).contains("never joined"), missing.toString());
            List<String> names = c.joinedNames();
            assertEquals("sim-" + 5, names.get(5));
            c.withHosts(FleetRun.names(names, java.util.Optional.empty()));
            List<Group> pairs = new ArrayList<>();
            List<Integer> alive = new ArrayList<>();
            for (int r = 0; r < NODES; r++) {
                if (r != never) {
                    alive.add(r);
                }
            }
            for (int i = 0; i + 1 < alive.size(); i += 2) {
                pairs.add(Group.pair(alive.get(i), alive.get(i + 1), Purpose.SURVEY, ""));
            }
            long t1 = System.nanoTime();
            RoundRunner.Outcome out = c.run(new RoundPlan(1, pairs));
            double roundS = (System.nanoTime() - t1) / 1e9;
            assertTrue(out.lost().isEmpty(), out.lost().toString());
            assertTrue(out.errors().stream().allMatch(e -> e == null), out.errors().stream().filter(e -> e != null).findFirst().orElse(""));
            assertTrue(out.busbw().stream().allMatch(b -> b > 0));
            c.finish();
            System.out.printf(Locale.ROOT, "fleet coordinator: %d nodes joined over real connections (1 never did: named"
                    + " after -T = %d s, %.1f s in all); a round of %d pairs (%d group stores) in %.2f s%n",
                    NODES - 1, settings.roundSeconds(), joinS, pairs.size(), pairs.size(), roundS);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aNodeStartedWithOtherFlagsStopsTheSearchAtOnceNamingTheFlag() throws Exception {
        // -T is 300 s: the refusal must come from the hello, not from the join wait running out
        FleetSettings settings = new FleetSettings(List.of(1L << 20), false, 300, 1, 5, "socket", 1, null);
        try (Coordinator c = new Coordinator(InetAddress.getLoopbackAddress(), 0, "127.0.0.1", "t0k", 3, settings,
                "-d float\n-n 20")) {
            Thread t = new Thread(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), c.port()), 30_000);
                    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
                    Messages.write(out, new Messages.Hello(2, "t0k", "sim-2", "-d double\n-n 20"));
                    s.getInputStream().read(); // until rank 0 closes it
                } catch (IOException e) {
                    // closed by rank 0: expected
                }
            });
            t.setDaemon(true);
            t.start();
            dev.ncclbench.NcclbenchException e = org.junit.jupiter.api.Assertions.assertThrows(
                    dev.ncclbench.NcclbenchException.class, c::awaitNodes);
            assertEquals(dev.ncclbench.ExitCode.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains("rank 2") && e.getMessage().contains("rank 0")
                    && e.getMessage().contains("-d double"), e.getMessage());
        }
    }

    /** A simulated node: hello, then per order a heartbeat and a report with one sample per group. */
    private static void node(int port, int rank) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 30_000);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            Messages.write(out, new Messages.Hello(rank, "t0k", "sim-" + rank, null));
            while (true) {
                Messages.Order o = Messages.read(in, Messages.Order.class);
                if (o.round() == 0) {
                    return;
                }
                Messages.write(out, Messages.Report.beat(o.round(), rank));
                List<Messages.GroupResult> results = new ArrayList<>();
                for (Messages.Assignment a : o.assignments()) {
                    results.add(new Messages.GroupResult(a.group(),
                            List.of(new Messages.Samples("all_reduce", 1L << 20, new double[]{0.001, 0.001, 0.001})), null, null));
                }
                Messages.write(out, new Messages.Report(o.round(), rank, results, false));
            }
        } catch (IOException e) {
            // the coordinator closed: the test is over
        }
    }
}
