package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.rendezvous.StoreClient;
import dev.ncclbench.spec.RunSpec;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

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

    static Messages.GroupResult run(Backend backend, RunSpec spec, int localRank, Messages.Assignment a,
                                    Messages.Order order) {
        List<Messages.Samples> out = new ArrayList<>();
        byte[] token = Base64.getDecoder().decode(a.token());
        try (StoreClient plane = StoreClient.connect(new InetSocketAddress(a.storeHost(), a.storePort()), token,
                a.groupRank(), a.groupSize(), spec.timeoutMillis())) {
            RankComm comm = backend.open(spec, List.of(plane), localRank).get(0);
            try {
                for (String name : order.collectives()) {
                    Collective c = Collectives.byName(name);
                    for (long size : order.sizes()) {
                        out.add(measure(comm, plane, c, size, order));
                    }
                }
            } finally {
                comm.close();
            }
            return new Messages.GroupResult(a.group(), out, null);
        } catch (NcclbenchException e) {
            return new Messages.GroupResult(a.group(), out, e.getMessage());
        } catch (RuntimeException e) {
            return new Messages.GroupResult(a.group(), out, e.toString());
        }
    }

    private static Messages.Samples measure(RankComm comm, StoreClient plane, Collective c, long size, Messages.Order order) {
        int elt = DataType.FLOAT.bytes();
        int n = comm.nranks();
        Counts counts = c.counts(Math.max(1, size / elt), elt, n);
        String tag = "fleet/" + c.name() + "/" + size;
        List<Double> samples = new ArrayList<>();
        try (Operation op = comm.prepare(new Call(c, counts, DataType.FLOAT, ReduceOp.SUM, 0, false))) {
            op.fill();
            plane.barrier(tag + "/start");
            for (int w = 0; w < order.warmup(); w++) {
                op.launch();
                op.drain();
            }
            long start = System.nanoTime();
            for (int i = 0; i < order.iters(); i++) {
                long t0 = System.nanoTime();
                op.launch();
                op.drain();
                long t1 = System.nanoTime();
                ByteBuffer mine = ByteBuffer.allocate(16).putDouble((t1 - t0) / 1e9).putDouble((t1 - start) / 1e6);
                byte[][] all = plane.allGather(tag + "/" + i, mine.array());
                double slowest = 0;
                double elapsedMs = 0;
                for (byte[] b : all) {
                    ByteBuffer bb = ByteBuffer.wrap(b);
                    slowest = Math.max(slowest, bb.getDouble());
                    elapsedMs = Math.max(elapsedMs, bb.getDouble());
                }
                samples.add(slowest);
                if (elapsedMs > order.budgetMillis()) {
                    break;
                }
            }
        }
        return new Messages.Samples(c.name(), size, samples.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
