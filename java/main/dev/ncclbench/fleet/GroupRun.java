package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.rendezvous.StoreClient;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.env.Host;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One node's part in one group: the group's own control plane (a small store rank 0 serves for this group
 * alone), the backend opened on it (socket: a sub-mesh of the group's members; nccl: a communicator of its
 * own, its unique id exchanged through that store), then the all_reduce (and sendrecv) at each size. After each
 * timed iteration the members exchange their times, so every member holds the slowest member's time and all
 * stop together once a size has used its share of the round.
 */
final class GroupRun {
    private GroupRun() {
    }

    /** Timed iterations per size stop here even on the fastest link (each exchanges its time through the store). */
    static final int MAX_ITERS = 1000;
    /** A size keeps measuring past -n for about this long when its budget allows: more samples, a steadier median. */
    static final long TARGET_MILLIS = 1000;

    /**
     * @param jobToken the job's token, of which the group's is made ({@link Messages.Assignment#token})
     * @param host     the machine, for the backend
     */
    static Messages.GroupResult run(Backend backend, RunSpec spec, int localRank, byte[] jobToken, Messages.Assignment a,
                                    Messages.Order order, Host host) {
        List<Messages.Samples> out = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        byte[] token = a.token(jobToken);
        try (StoreClient plane = StoreClient.connect(new InetSocketAddress(a.storeHost(), a.storePort()), token,
                a.groupRank(), a.groupSize(), spec.timeoutMillis(), null, HostName.node(null, host))) {
            RankComm comm = backend.open(spec, List.of(plane), localRank, host).get(0);
            try {
                long roundBudget = order.budgetMillis() * order.sizes().size() * order.collectives().size();
                double spentMs = 0;
                List<Long> sizes = order.sizes().stream().sorted().toList();
                for (String name : order.collectives()) {
                    Collective c = spec.collective(name);
                    double lastSeconds = Double.NaN;
                    long lastSize = 0;
                    for (long size : sizes) {
                        // every member holds the same figures (the slowest member's), so all skip the same sizes
                        double guessMs = Double.isNaN(lastSeconds) ? 0
                                : lastSeconds * 1e3 * size / lastSize * (order.warmup() + 1);
                        if (!Double.isNaN(lastSeconds) && spentMs + guessMs > roundBudget) {
                            skipped.add(String.format(Locale.ROOT, "%s %s (about %.1f s an iteration)", name,
                                    FleetText.size(size), guessMs / 1e3 / (order.warmup() + 1)));
                            continue;
                        }
                        Measured m = measure(comm, plane, c, size, order);
                        out.add(m.samples());
                        spentMs += m.elapsedMs();
                        lastSeconds = GroupResults.median(m.samples().seconds());
                        lastSize = size;
                    }
                }
            } finally {
                comm.close();
            }
            String unfinished = skipped.isEmpty() ? null : String.join(", ", skipped) + " did not fit the round's "
                    + order.budgetMillis() * order.sizes().size() * order.collectives().size() / 1000 + " s";
            return new Messages.GroupResult(a.group(), out, null, unfinished);
        } catch (NcclbenchException e) {
            return new Messages.GroupResult(a.group(), out, e.getMessage(), null);
        } catch (RuntimeException e) {
            return new Messages.GroupResult(a.group(), out, e.toString(), null);
        }
    }

    private record Measured(Messages.Samples samples, double elapsedMs) {
    }

    /**
     * Warm-up, then timed iterations: at least -n and about {@link #TARGET_MILLIS} where they fit, never past the
     * size's budget; when the warm-up alone used the budget, its last iteration is the one sample (the rate reached).
     */
    private static Measured measure(RankComm comm, StoreClient plane, Collective c, long size, Messages.Order order) {
        int elt = DataType.FLOAT.bytes();
        int n = comm.nranks();
        Counts counts = c.counts(Math.max(1, size / elt), elt, n);
        String tag = "fleet/" + c.name() + "/" + size;
        List<Double> samples = new ArrayList<>();
        double elapsedMs = 0;
        try (Operation op = comm.prepare(new Call(c, counts, DataType.FLOAT, ReduceOp.SUM, 0, false))) {
            op.fill();
            plane.barrier(tag + "/start");
            long start = System.nanoTime();
            double lastWarm = 0;
            for (int w = 0; w < order.warmup(); w++) {
                long t0 = System.nanoTime();
                op.launch();
                op.drain();
                lastWarm = (System.nanoTime() - t0) / 1e9;
            }
            if (order.warmup() > 0) {
                double[] shared = slowest(plane, tag + "/warm", lastWarm, (System.nanoTime() - start) / 1e6);
                elapsedMs = shared[1];
                if (elapsedMs > order.budgetMillis()) {
                    samples.add(shared[0]);
                }
            }
            long target = Math.min(order.budgetMillis(), TARGET_MILLIS);
            for (int i = 0; samples.isEmpty() || (i < MAX_ITERS && (i < order.iters() || elapsedMs < target)
                    && elapsedMs <= order.budgetMillis()); i++) {
                long t0 = System.nanoTime();
                op.launch();
                op.drain();
                long t1 = System.nanoTime();
                double[] shared = slowest(plane, tag + "/" + i, (t1 - t0) / 1e9, (t1 - start) / 1e6);
                samples.add(shared[0]);
                elapsedMs = shared[1];
            }
        }
        return new Measured(new Messages.Samples(c.name(), size, samples.stream().mapToDouble(Double::doubleValue).toArray()),
                elapsedMs);
    }

    /** Every member's iteration time and elapsed time: the largest of each, the same on every member. */
    private static double[] slowest(StoreClient plane, String tag, double seconds, double elapsedMs) {
        byte[][] all = plane.allGather(tag, ByteBuffer.allocate(16).putDouble(seconds).putDouble(elapsedMs).array());
        double[] max = {0, 0};
        for (byte[] b : all) {
            ByteBuffer bb = ByteBuffer.wrap(b);
            max[0] = Math.max(max[0], bb.getDouble());
            max[1] = Math.max(max[1], bb.getDouble());
        }
        return max;
    }
}
