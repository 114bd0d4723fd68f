package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 1024-rank job in which 1,014 ranks hang, against the real store over loopback: ten ranks wait in a gather, 16
 * are connected and silent, the others never came. Every waiting rank gets the one verdict, which counts every hung
 * rank and names the first of them, in one line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ManyHungRanksTest {
    private static final byte[] TOKEN = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aThousandHungRanksAreCountedAndTheFirstNamed() throws Exception {
        int n = 1024;
        int[] waiting = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18};
        ExecutorService pool = Executors.newFixedThreadPool(waiting.length);
        List<StoreClient> silent = new ArrayList<>();
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 700)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            for (int rank = 1; rank <= 31; rank += 2) {
                silent.add(StoreClient.connect(at, TOKEN, rank, n, 5_000));
            }
            List<Future<NcclbenchException>> failures = new ArrayList<>();
            for (int rank : waiting) {
                failures.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at, TOKEN, rank, n, 5_000)) {
                        return assertThrows(NcclbenchException.class, () -> c.allGather("sizes/8", new byte[] {1}));
                    }
                }));
            }
            for (Future<NcclbenchException> f : failures) {
                NcclbenchException e = f.get(30, TimeUnit.SECONDS);
                assertEquals(ExitCode.TIMEOUT, e.exitCode(), e.getMessage());
                // judged: all 1,014 ranks that neither wait here nor reported (the silent 16 and the 998 never seen)
                assertTrue(e.getMessage().startsWith("1,014 ranks (1, 3, 5, 7, 9, 11, 13, 15 and 1,006 more) did not"
                        + " reach 'sizes/8' within 0.7 s"), e.getMessage());
                // the 16 silent ones said their host (this machine's) in their hello; the others never came
                String host = dev.ncclbench.launch.HostName.kernel();
                assertTrue(e.getMessage().contains(" within 0.7 s on " + host + "; 998 never reached the store"),
                        e.getMessage());
                assertTrue(e.getMessage().length() < 200 + host.length(), "one line, not a page: " + e.getMessage());
            }
        } finally {
            silent.forEach(StoreClient::close);
            pool.shutdownNow();
        }
    }
}
