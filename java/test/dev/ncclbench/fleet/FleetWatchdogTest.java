package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.env.Host;
import dev.ncclbench.rendezvous.JobProof;
import dev.ncclbench.rendezvous.StoreClient;
import dev.ncclbench.rendezvous.StoreJob;
import dev.ncclbench.rendezvous.StoreServer;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fleet's -T is a sweep's watchdog, and --round-timeout the round's limit: a pair's all_reduce whose partner reached the
 * size's start and then never sends (a real hang on real loopback sockets, socket backend, through rank 0's real group
 * store) fails the group in -T's words, though the round would wait ten minutes; a node that never joins is waited for
 * the round's limit, whatever -T; a -T longer than the round is refused in one line.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FleetWatchdogTest {
    private static final byte[] TOKEN = "fleet-watchdog-test-token".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void aCollectiveThatMakesNoProgressFailsItsGroupAfterMinusTNotAfterTheRound() throws Exception {
        // --round-timeout 600, -T 2, no warm-up: the all_reduce is the first thing the pair does after its start
        FleetSettings settings = new FleetSettings(List.of(1L << 20), false, 5, 0, 600, 2, "socket", 1, "lo");
        Backend backend = Backends.byName("socket");
        RunSpec spec = BackendChoice.specFor(backend, settings.runSpec(dir), false);
        Host host = Host.of(Map.of());
        byte[] salt = JobProof.nonce();
        try (StoreServer store = new StoreServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            StoreJob job = store.open(JobProof.derive(TOKEN, salt), 2, settings.roundMillis());
            Messages.Assignment[] a = new Messages.Assignment[2];
            for (int k = 0; k < 2; k++) {
                a[k] = new Messages.Assignment(0, k, 2, "127.0.0.1", store.port(), Base64.getEncoder().encodeToString(salt),
                        null);
            }
            Messages.Order order = new Messages.Order(1, List.of(a[0]), settings.sizes(), settings.collectives(),
                    settings.iters(), settings.warmup(), settings.budgetMillis(), null);
            CompletableFuture<Messages.GroupResult> measured = CompletableFuture.supplyAsync(
                    () -> GroupRun.run(backend, spec, 0, TOKEN, a[0], order, host));
            // the partner: joins the group, opens the backend, reaches the size's start as GroupRun does, then stops
            try (StoreClient plane = StoreClient.connect(new InetSocketAddress(a[1].storeHost(), a[1].storePort()),
                    a[1].token(TOKEN), 1, 2, spec.timeoutMillis(), null, "partner")) {
                RankComm comm = backend.open(spec, List.of(plane), 0, host).get(0);
                Collective c = spec.collective("all_reduce");
                long size = settings.sizes().get(0);
                try (Operation op = comm.prepare(new Call(c, c.counts(size / DataType.FLOAT.bytes(), DataType.FLOAT.bytes(),
                        2), DataType.FLOAT, ReduceOp.SUM, 0, false))) {
                    op.fill();
                    plane.barrier("fleet/all_reduce/" + size + "/start");
                    Messages.GroupResult r = measured.get(100, TimeUnit.SECONDS);
                    assertNotNull(r.error(), "a pair whose partner never sends has no result");
                    assertTrue(r.error().contains("did not reach 'all_reduce") && r.error().contains("within 2 s"),
                            r.error());
                    assertFalse(r.error().contains("600"), r.error());
                    assertTrue(r.samples().isEmpty(), r.samples().toString());
                } finally {
                    comm.close();
                }
            } finally {
                store.close(List.of(job));
            }
        }
    }

    @Test
    void aNodeThatNeverJoinsIsWaitedForTheRoundsLimitWhateverMinusT() throws Exception {
        FleetSettings settings = new FleetSettings(List.of(1L << 20), false, 5, 1, 2, 1, "socket", 1, null);
        try (Coordinator c = new Coordinator(InetAddress.getLoopbackAddress(), 0, "127.0.0.1", TOKEN, 2, settings)) {
            Map<Integer, String> missing = c.awaitNodes();
            assertEquals(List.of(0, 1), List.copyOf(new java.util.TreeSet<>(missing.keySet())), missing.toString());
            assertTrue(missing.get(1).contains("no process of rank 1 connected to rank 0 within 2 s"), missing.get(1));
        }
    }

    @Test
    void aWatchdogLongerThanTheRoundIsRefusedSayingWhatToTypeNow() {
        FleetSettings old = new FleetSettings(List.of(1L << 20), false, 5, 1, 60, 120, "socket", 1, null);
        NcclbenchException e = assertThrows(NcclbenchException.class, old::requireWatchdogWithinRound);
        assertEquals(2, e.exitCode().code);
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().startsWith("-T 120 is longer than a round (--round-timeout 60)"), e.getMessage());
        assertTrue(e.getMessage().contains("give --round-timeout 120"), e.getMessage());
        new FleetSettings(List.of(1L << 20), false, 5, 1, 60, 60, "socket", 1, null).requireWatchdogWithinRound();
    }
}
