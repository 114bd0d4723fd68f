package dev.ncclbench.backend.socket;

import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataPattern;
import dev.ncclbench.collective.Kind;
import dev.ncclbench.spec.Sizes;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * One collective at one size on the socket backend. all_reduce as a planned ring or recursive doubling
 * ({@link AllReducePlan}); rings for reduce_scatter and all_gather; pipelined chains for broadcast and reduce; direct exchanges for alltoall,
 * gather, scatter and sendrecv. Every call is synchronous: {@link #launch} returns when this rank is done.
 */
final class SocketOperation implements Operation {
    /** Chain collectives move segments of this size, so that every link of the chain is busy at once. */
    private static final int SEGMENT = 4 << 20;
    /** A power of two: about a millisecond of {@link #verify} on one core. */
    static final long ABORT_CHECK_ELEMENTS = 1L << 16;

    private final SocketRankComm comm;
    private final Mesh mesh;
    private final Call call;
    private final Counts counts;
    private final int root;
    private final Reducer reducer;
    private final int rank;
    private final int n;
    private final int elt;
    private final ByteBuffer main;
    private final ByteBuffer scratch;
    /** This rank's send data: base buffer and byte offset. */
    private final ByteBuffer sBuf;
    private final int sOff;
    private final int rOff;
    private final int sendBytes;
    private final int recvBytes;
    private final String what;
    /** all_reduce's replayed steps; null for the other collectives, which build their transfers per call. */
    private final AllReducePlan allReduce;
    /** This collective's algorithm, chosen once here rather than on every launch. */
    private final Runnable run;

    SocketOperation(SocketRankComm comm, Call call, ByteBuffer main, ByteBuffer send, ByteBuffer scratch) {
        this.comm = comm;
        this.mesh = comm.mesh();
        this.call = call;
        this.counts = call.counts();
        this.root = Math.max(call.root(), 0);
        this.reducer = call.collective().reduces() ? new Reducer(call.type(), call.op()) : null;
        this.rank = comm.rank();
        this.n = comm.nranks();
        this.elt = call.type().bytes();
        this.main = main;
        this.scratch = scratch;
        this.sBuf = call.inPlace() ? main : send;
        this.sOff = call.inPlace() ? (int) (counts.sendInPlaceOffset() * rank * elt) : 0;
        this.rOff = call.inPlace() ? (int) (counts.recvInPlaceOffset() * rank * elt) : 0;
        this.sendBytes = (int) (counts.sendCount() * elt);
        this.recvBytes = (int) (counts.recvCount() * elt);
        this.what = call.collective().name() + " " + Sizes.human(counts.sizeBytes(call.type()));
        Kind kind = call.collective().kind();
        this.allReduce = kind == Kind.ALL_REDUCE
                ? new AllReducePlan(mesh, comm.tuning().allReduce(counts.paramCount() * elt, n), sBuf, sOff, main, rOff,
                        scratch, counts.paramCount(), elt, reducer, what)
                : null;
        this.run = switch (kind) {
            case ALL_REDUCE -> allReduce::run;
            case REDUCE_SCATTER -> this::reduceScatter;
            case ALL_GATHER -> this::allGather;
            case BROADCAST -> this::broadcast;
            case REDUCE -> this::reduce;
            case ALLTOALL -> this::allToAll;
            case GATHER -> this::gather;
            case SCATTER -> this::scatter;
            case SENDRECV -> this::sendRecv;
            case ALLTOALLV -> () -> PeerExchanges.allToAllV(this);
            case HYPERCUBE -> () -> PeerExchanges.hypercube(this);
        };
    }

    /** The algorithm this call runs, for the result row (as NCCL reports its algo). */
    @Override
    public String algorithm() {
        return switch (call.collective().kind()) {
            case ALL_REDUCE -> allReduce.algorithm();
            case REDUCE_SCATTER, ALL_GATHER -> n == 1 ? "local" : SocketTuning.RING;
            case BROADCAST, REDUCE -> n == 1 ? "local" : "chain";
            case ALLTOALL, GATHER, SCATTER, SENDRECV, ALLTOALLV -> "direct";
            case HYPERCUBE -> n == 1 ? "local" : "hypercube";
        };
    }

    /** all_reduce only ({@link AllReducePlan#codePath}); the other collectives warm each size alone. */
    @Override
    public String codePath() {
        return allReduce == null ? null : allReduce.codePath(comm.tuning().pollLimit());
    }

    @Override
    public void fill() {
        int total = (int) (Math.max(counts.sendCount(), counts.recvCount()) * elt);
        byte[] poison = new byte[Math.min(total, 1 << 16)];
        java.util.Arrays.fill(poison, (byte) 0xFF);
        ByteBuffer m = main.duplicate();
        m.clear();
        for (int off = 0; off < total; off += poison.length) {
            m.put(poison, 0, Math.min(poison.length, total - off));
        }
        for (long j = 0; j < counts.sendCount(); j++) {
            stopWhenAborted(j);
            Elements.write(sBuf, sOff + (int) (j * elt), call.type(), DataPattern.input(rank, j, call.op()));
        }
    }

    @Override
    public long verify() {
        Collective coll = call.collective();
        if (call.inPlace() && !coll.checkedInPlace()) {
            return -1; // nccl-tests prints N/A (alltoallv in place)
        }
        if (!coll.hasOutput(rank, root)) {
            return 0;
        }
        long wrong = 0;
        for (long j = 0; j < counts.recvCount(); j++) {
            stopWhenAborted(j);
            double want = DataPattern.expected(coll, rank, j, counts, n, root, call.op(), call.type());
            double got = Elements.read(main, rOff + (int) (j * elt), call.type());
            if (!DataPattern.matches(got, want, call.op(), call.type())) {
                wrong++;
            }
        }
        return wrong;
    }

    /**
     * Every {@value #ABORT_CHECK_ELEMENTS} elements of a fill or a check, whether the mesh was aborted (a signal,
     * another rank's failure): checking 256 MiB on 4 ranks of 2 busy cores took 17 s, all of it after a first Ctrl-C.
     */
    private void stopWhenAborted(long element) {
        if ((element & (ABORT_CHECK_ELEMENTS - 1)) == 0) {
            mesh.requireNotAborted();
        }
    }

    @Override
    public void drain() {
        // every launch is synchronous
    }

    @Override
    public void close() {
        // buffers belong to the communicator and are reused by the next size
    }

    @Override
    public void launch() {
        run.run();
    }

    private int mod(int x) {
        return ((x % n) + n) % n;
    }

    static ByteBuffer region(ByteBuffer base, int off, int len) {
        // duplicate() resets the byte order to big-endian; the data is native-order
        ByteBuffer b = base.duplicate().order(ByteOrder.nativeOrder());
        b.limit(off + len).position(off);
        return b;
    }

    void copy(ByteBuffer from, int fromOff, ByteBuffer to, int toOff, int len) {
        if (from == to && fromOff == toOff || len == 0) {
            return;
        }
        region(to, toOff, len).put(region(from, fromOff, len));
    }

    void exchange(List<Xfer> sends, List<Xfer> recvs) {
        mesh.exchange(sends, recvs, what);
    }

    /** Byte offset of chunk i when {@code count} elements are cut into n chunks. */
    private int chunk(long count, int i) {
        return (int) (count * i / n) * elt;
    }

    private void reduceScatter() {
        int block = (int) (counts.paramCount() * elt);
        if (n == 1) {
            copy(sBuf, sOff, main, rOff, block);
            reducer.finishAverage(main, rOff, block, n);
            return;
        }
        for (int s = 0; s < n - 1; s++) {
            int sc = mod(rank - s - 1);
            int rc = mod(rank - s - 2);
            ByteBuffer from = s == 0 ? sBuf : scratch;
            int fromOff = s == 0 ? sOff + sc * block : sc * block;
            boolean last = s == n - 2;
            ByteBuffer into = last ? region(main, rOff, block) : region(scratch, rc * block, block);
            exchange(List.of(Xfer.send(mod(rank + 1), region(from, fromOff, block))),
                    List.of(Xfer.recvReduce(mod(rank - 1), into, sBuf, sOff + rc * block, reducer, false)));
        }
        reducer.finishAverage(main, rOff, block, n);
    }

    private void allGather() {
        int block = (int) (counts.paramCount() * elt);
        copy(sBuf, sOff, main, rOff + rank * block, block);
        for (int s = 0; s < n - 1; s++) {
            int sc = mod(rank - s);
            int rc = mod(rank - s - 1);
            exchange(List.of(Xfer.send(mod(rank + 1), region(main, rOff + sc * block, block))),
                    List.of(Xfer.recv(mod(rank - 1), region(main, rOff + rc * block, block))));
        }
    }

    /** Segment k of a {@code bytes}-long buffer: [offset, length]. */
    private static int[] segment(int bytes, int k) {
        int off = k * SEGMENT;
        return new int[] {off, Math.min(SEGMENT, bytes - off)};
    }

    private void broadcast() {
        int bytes = (int) (counts.paramCount() * elt);
        if (rank == root) {
            copy(sBuf, sOff, main, rOff, bytes);
        }
        if (n == 1) {
            return;
        }
        int p = mod(rank - root);
        int segs = Math.max(1, (bytes + SEGMENT - 1) / SEGMENT);
        for (int t = 0; t < segs + n - 2; t++) {
            List<Xfer> sends = new ArrayList<>(1);
            List<Xfer> recvs = new ArrayList<>(1);
            int out = t - p;
            if (p < n - 1 && out >= 0 && out < segs) {
                int[] seg = segment(bytes, out);
                sends.add(Xfer.send(mod(rank + 1), p == 0 ? region(sBuf, sOff + seg[0], seg[1]) : region(main, rOff + seg[0], seg[1])));
            }
            int in = t - p + 1;
            if (p >= 1 && in >= 0 && in < segs) {
                int[] seg = segment(bytes, in);
                recvs.add(Xfer.recv(mod(rank - 1), region(main, rOff + seg[0], seg[1])));
            }
            if (!sends.isEmpty() || !recvs.isEmpty()) {
                exchange(sends, recvs);
            }
        }
    }

    private void reduce() {
        int bytes = (int) (counts.paramCount() * elt);
        if (n == 1) {
            copy(sBuf, sOff, main, rOff, bytes);
            reducer.finishAverage(main, rOff, bytes, n);
            return;
        }
        int q = mod(rank - root - 1);
        ByteBuffer acc = rank == root ? main : scratch;
        int accOff = rank == root ? rOff : 0;
        int segs = Math.max(1, (bytes + SEGMENT - 1) / SEGMENT);
        for (int t = 0; t < segs + n - 2; t++) {
            List<Xfer> sends = new ArrayList<>(1);
            List<Xfer> recvs = new ArrayList<>(1);
            int out = t - q;
            if (q < n - 1 && out >= 0 && out < segs) {
                int[] seg = segment(bytes, out);
                sends.add(Xfer.send(mod(rank + 1), q == 0 ? region(sBuf, sOff + seg[0], seg[1]) : region(acc, accOff + seg[0], seg[1])));
            }
            int in = t - q + 1;
            if (q >= 1 && in >= 0 && in < segs) {
                int[] seg = segment(bytes, in);
                recvs.add(Xfer.recvReduce(mod(rank - 1), region(acc, accOff + seg[0], seg[1]), sBuf, sOff + seg[0], reducer, false));
            }
            if (!sends.isEmpty() || !recvs.isEmpty()) {
                exchange(sends, recvs);
            }
        }
        if (rank == root) {
            reducer.finishAverage(main, rOff, bytes, n);
        }
    }

    private void allToAll() {
        int block = (int) (counts.paramCount() * elt);
        ByteBuffer src = sBuf;
        int srcOff = sOff;
        if (call.inPlace()) {
            copy(sBuf, sOff, scratch, 0, sendBytes);
            src = scratch;
            srcOff = 0;
        }
        copy(src, srcOff + rank * block, main, rOff + rank * block, block);
        List<Xfer> sends = new ArrayList<>();
        List<Xfer> recvs = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            if (p != rank) {
                sends.add(Xfer.send(p, region(src, srcOff + p * block, block)));
                recvs.add(Xfer.recv(p, region(main, rOff + p * block, block)));
            }
        }
        exchange(sends, recvs);
    }

    private void gather() {
        int block = (int) (counts.paramCount() * elt);
        if (rank != root) {
            exchange(List.of(Xfer.send(root, region(sBuf, sOff, block))), List.of());
            return;
        }
        copy(sBuf, sOff, main, rOff + rank * block, block);
        List<Xfer> recvs = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            if (p != rank) {
                recvs.add(Xfer.recv(p, region(main, rOff + p * block, block)));
            }
        }
        exchange(List.of(), recvs);
    }

    private void scatter() {
        int block = (int) (counts.paramCount() * elt);
        if (rank != root) {
            exchange(List.of(), List.of(Xfer.recv(root, region(main, rOff, block))));
            return;
        }
        copy(sBuf, sOff + rank * block, main, rOff, block);
        List<Xfer> sends = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            if (p != rank) {
                sends.add(Xfer.send(p, region(sBuf, sOff + p * block, block)));
            }
        }
        exchange(sends, List.of());
    }

    private void sendRecv() {
        int bytes = (int) (counts.paramCount() * elt);
        if (n == 1) {
            copy(sBuf, sOff, main, rOff, bytes);
            return;
        }
        ByteBuffer src = sBuf;
        int srcOff = sOff;
        if (call.inPlace()) {
            copy(sBuf, sOff, scratch, 0, bytes);
            src = scratch;
            srcOff = 0;
        }
        exchange(List.of(Xfer.send(mod(rank + 1), region(src, srcOff, bytes))),
                List.of(Xfer.recv(mod(rank - 1), region(main, rOff, bytes))));
    }

    int recvBytes() {
        return recvBytes;
    }

    // what PeerExchanges reads: this call's buffers and place
    Call call() { return call; }
    int rank() { return rank; }
    int n() { return n; }
    int elt() { return elt; }
    ByteBuffer main() { return main; }
    ByteBuffer scratch() { return scratch; }
    ByteBuffer sendBuffer() { return sBuf; }
    int sendOffset() { return sOff; }
    int recvOffset() { return rOff; }
    int sendBytes() { return sendBytes; }

    SocketRankComm comm() {
        return comm;
    }
}
