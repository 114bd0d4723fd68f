package dev.ncclbench.rendezvous;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A simulated process of the scale harness as one thread: it speaks for its ranks over its one connection, each
 * gather one request for all of them ({@link StoreLink#gatherAll}), as the real client sends a node's ranks when they
 * arrive together ({@link LocalArrivals}). The same steps as {@link ControlPlaneScale}'s simulated ranks, with every
 * answer checked: what a job of nodes costs the store, without waking a thread per rank on this machine's few cores.
 */
final class SimulatedProcess {
    private final ControlPlaneScale.Run run;
    private final int first;
    private final int count;

    SimulatedProcess(ControlPlaneScale.Run run, int process) {
        this.run = run;
        this.count = run.perProcess;
        this.first = process * count;
    }

    void run() throws IOException {
        StoreLink link = StoreLink.connect(run.at, ControlPlaneScale.TOKEN, first, count, run.n, run.timeoutMillis,
                ControlPlaneScale.FLAGS);
        try {
            byte[][] mine = new byte[count][];
            for (int i = 0; i < count; i++) {
                mine[i] = ControlPlaneScale.Run.info(first + i);
            }
            check(link.gatherAll("rankinfo", Wire.TO_ROOT, 0, mine, null), Wire.TO_ROOT, "rankinfo");
            for (int i = 0; i < count; i++) {
                mine[i] = first + i == 0 ? "20261202-120000-socket-12345".getBytes(StandardCharsets.UTF_8) : Wire.EMPTY;
            }
            check(link.gatherAll("run-folder", Wire.FROM_ROOT, 0, mine, null), Wire.FROM_ROOT, "run-folder");
            int[][] peers = new int[count][];
            for (int i = 0; i < count; i++) {
                mine[i] = ControlPlaneScale.address(first + i);
                peers[i] = ControlPlaneScale.peers(first + i, run.n);
                run.peersMax.accumulateAndGet(peers[i].length, Math::max);
            }
            byte[][] got = link.gatherAll("socket/addresses", Wire.PEERS, 0, mine, peers);
            for (int i = 0; i < count; i++) {
                ByteBuffer b = ok(got[i], "socket/addresses");
                int n = b.getInt();
                for (int k = 0; k < n; k++) {
                    byte[] a = new byte[b.getInt()];
                    b.get(a);
                    if (!Arrays.equals(a, ControlPlaneScale.address(peers[i][k]))) {
                        throw new IllegalStateException("rank " + (first + i) + " got another address for rank " + peers[i][k]);
                    }
                }
            }
            byte[][] empty = new byte[count][];
            Arrays.fill(empty, Wire.EMPTY);
            check(link.gatherAll("ready", Wire.NOTHING, 0, empty, null), Wire.NOTHING, "ready");
            if (first == 0) {
                run.rendezvousDone();
            }
            byte[][] results = new byte[count][];
            Arrays.fill(results, new byte[run.payload]);
            String tag = null;
            for (int s = 0; s < run.sizes; s++) {
                for (String placement : new String[] {"out-of-place", "in-place"}) {
                    String start = "#" + s + " all_reduce " + (8L << s) + " B " + placement + ": start";
                    // the previous placement's results travel with this start barrier (sweep's ResultRelay)
                    boolean barrier = tag == null;
                    check(link.gatherAll(start, barrier ? Wire.NOTHING : Wire.TO_ROOT, 0, barrier ? empty : results, null),
                            barrier ? Wire.NOTHING : Wire.TO_ROOT, start);
                    tag = start;
                }
                if (first == 0) {
                    run.sizeEnd[s] = System.nanoTime();
                }
            }
            check(link.gatherAll(tag + ": results", Wire.TO_ROOT, 0, results, null), Wire.TO_ROOT, tag + ": results");
            check(link.gatherAll("done", Wire.NOTHING, 0, empty, null), Wire.NOTHING, "done");
        } finally {
            for (int i = 0; i < count; i++) {
                link.bye(first + i);
            }
        }
    }

    /** Each rank's answer is OK and holds what {@code mode} gives it. */
    private void check(byte[][] answers, int mode, String tag) throws IOException {
        for (int i = 0; i < count; i++) {
            int rank = first + i;
            int n = ok(answers[i], tag).getInt();
            int due = mode == Wire.TO_ROOT && rank == 0 ? run.n : mode == Wire.FROM_ROOT ? 1 : mode == Wire.NOTHING
                    || mode == Wire.TO_ROOT ? 0 : -1;
            if (n != due) {
                throw new IllegalStateException("rank " + rank + " got " + n + " payloads for '" + tag + "', not " + due);
            }
        }
    }

    private ByteBuffer ok(byte[] answer, String tag) {
        ByteBuffer b = ByteBuffer.wrap(answer);
        if (b.getInt() != Wire.OK) {
            throw new IllegalStateException("the store failed '" + tag + "': code " + b.getInt());
        }
        return b;
    }
}
