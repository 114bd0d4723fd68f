package dev.ncclbench.backend.socket;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * all_reduce on the socket backend as a fixed list of steps, built once per size and placement: every call
 * replays the same transfers on the same buffers, so the timed loop allocates nothing (allocation per call
 * drove the young collections whose pauses were the p99 at small sizes, docs/benchmarks.md).
 *
 * <p>Two algorithms, as NCCL has a latency one and a bandwidth one:
 * <ul>
 * <li>{@code rd}, recursive doubling: log2(n) steps, each exchanging the whole buffer with one partner and
 * reducing it (one step for 2 ranks). Ranks beyond the largest power of two first hand their data to a
 * partner and get the result back at the end. Fewest steps: the small sizes' algorithm.</li>
 * <li>{@code ring}: reduce-scatter then all-gather, 2(n-1) steps of 1/n of the buffer each: every rank sends
 * and reduces the least, the large sizes' algorithm.</li>
 * <li>{@code rabenseifner}: reduce-scatter by recursive halving (each step sends half of what is left to a partner
 * and reduces the other half), then all-gather by recursive doubling: the ring's bytes for a power of two in
 * 2 log2(n) steps instead of 2(n-1), as Open MPI's algorithm of that name. Extra ranks fold in as in {@code rd}.
 * On 2 ranks it moves exactly what the ring moves.</li>
 * </ul>
 */
final class AllReducePlan {
    private interface Step {
        void run();
    }

    private final Mesh mesh;
    private final String what;
    private final Reducer reducer;
    private final int elt;
    private final int n;
    private final int rank;
    private final List<Step> steps = new ArrayList<>();
    private final String algorithm;
    /** The most bytes one exchange moves (sent and received); the fewest and the most one transfer moves. */
    private long largestExchange;
    private long smallestTransfer = Long.MAX_VALUE;
    private long largestTransfer;

    /** A place in a buffer: the buffer and a byte offset. */
    private record At(ByteBuffer buf, int off) {
    }

    AllReducePlan(Mesh mesh, String algorithm, ByteBuffer sBuf, int sOff, ByteBuffer main, int rOff, ByteBuffer scratch,
                  long count, int elt, Reducer reducer, String what) {
        this.mesh = mesh;
        this.what = what;
        this.reducer = reducer;
        this.elt = elt;
        this.n = mesh.nranks();
        this.rank = mesh.rank();
        this.algorithm = algorithm;
        int bytes = (int) (count * elt);
        At send = new At(sBuf, sOff);
        At result = new At(main, rOff);
        switch (algorithm) {
            case "local" -> copy(send, result, bytes);
            case SocketTuning.RD -> recursiveDoubling(send, result, new At(scratch, 0), bytes);
            case SocketTuning.RING -> ring(send, result, count);
            case SocketTuning.RABENSEIFNER -> halvingDoubling(send, result, count);
            default -> throw new IllegalArgumentException("no all_reduce algorithm " + algorithm);
        }
        steps.add(() -> reducer.finishAverage(main, rOff, bytes, n));
    }

    String algorithm() {
        return algorithm;
    }

    /**
     * Which code a call runs (Operation#codePath): the algorithm, whether its exchanges run on the rank's thread or on
     * blocking threads ({@code pollLimit}, as Mesh#exchange chooses) and whether its transfers are split over the
     * pair's connections ({@link Mesh#SPLIT_THRESHOLD}): between those bounds a size changes only how often the
     * loops go round.
     */
    String codePath(long pollLimit) {
        String split = smallestTransfer >= Mesh.SPLIT_THRESHOLD ? ", split"
                : largestTransfer < Mesh.SPLIT_THRESHOLD ? ", one connection" : ", some split";
        return algorithm + (largestExchange <= pollLimit ? ", polled" : ", threads") + split;
    }

    void run() {
        for (int i = 0; i < steps.size(); i++) {
            steps.get(i).run();
        }
    }

    private void recursiveDoubling(At send, At result, At spare, int bytes) {
        int p = Integer.highestOneBit(n);
        int extra = n - p;
        // x holds this rank's partial result, y receives the next one: never the same bytes, since a step still
        // sends x while y fills (in place, the send buffer is the result buffer, so y starts in the spare one)
        At[] xy = {send, same(send, result) ? spare : result};
        if (handsOver(send, result, bytes, extra)) {
            return;
        }
        if (rank < 2 * extra) {
            reduceStep(List.of(), rank - 1, xy, result, spare, bytes);
        }
        int me = rank < 2 * extra ? rank / 2 : rank - extra;
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = me ^ mask;
            int peer = partner < extra ? partner * 2 + 1 : partner + extra;
            reduceStep(List.of(Xfer.send(peer, region(xy[0], bytes))), peer, xy, result, spare, bytes);
        }
        if (rank < 2 * extra) {
            exchange(List.of(Xfer.send(rank - 1, region(xy[0], bytes))), List.of());
        }
        if (!same(xy[0], result)) {
            copy(xy[0], result, bytes);
        }
    }

    /** Receives from peer into y, reducing with x (sending what is given meanwhile); then y is the new x. */
    private void reduceStep(List<Xfer> sends, int peer, At[] xy, At result, At spare, int bytes) {
        At x = xy[0];
        At y = xy[1];
        exchange(sends, List.of(Xfer.recvReduce(peer, region(y, bytes), x.buf(), x.off(), reducer, x.buf() != y.buf())));
        xy[0] = y;
        xy[1] = same(y, result) ? spare : result;
    }

    private void ring(At send, At result, long c) {
        for (int s = 0; s < n - 1; s++) {
            int sc = mod(rank - s);
            int rc = mod(rank - s - 1);
            At from = s == 0 ? send : result;
            exchange(List.of(Xfer.send(mod(rank + 1), region(from, chunk(c, sc), chunk(c, sc + 1) - chunk(c, sc)))),
                    List.of(Xfer.recvReduce(mod(rank - 1), region(result, chunk(c, rc), chunk(c, rc + 1) - chunk(c, rc)),
                            send.buf(), send.off() + chunk(c, rc), reducer, send.buf() != result.buf())));
        }
        for (int s = 0; s < n - 1; s++) {
            int sc = mod(rank + 1 - s);
            int rc = mod(rank - s);
            exchange(List.of(Xfer.send(mod(rank + 1), region(result, chunk(c, sc), chunk(c, sc + 1) - chunk(c, sc)))),
                    List.of(Xfer.recv(mod(rank - 1), region(result, chunk(c, rc), chunk(c, rc + 1) - chunk(c, rc)))));
        }
    }

    private void halvingDoubling(At send, At result, long count) {
        int bytes = (int) (count * elt);
        int p = Integer.highestOneBit(n);
        int extra = n - p;
        if (handsOver(send, result, bytes, extra)) {
            return;
        }
        // x: where this rank's partial result is, the whole buffer until the halving starts
        At x = send;
        if (rank < 2 * extra) {
            exchange(List.of(), List.of(Xfer.recvReduce(rank - 1, region(result, bytes), send.buf(), send.off(), reducer,
                    send.buf() != result.buf())));
            x = result;
        }
        int me = rank < 2 * extra ? rank / 2 : rank - extra;
        int steps = Integer.numberOfTrailingZeros(p);
        Halves[] halves = new Halves[steps];
        long from = 0;
        long to = count;
        // halving: the partner across the highest bit first; both hold the same range and split it the same way
        for (int k = 0; k < steps; k++) {
            int mask = p >> (k + 1);
            long mid = from + (to - from) / 2;
            boolean low = (me & mask) == 0;
            Halves h = new Halves(peerOf(me ^ mask, extra), low ? from : mid, low ? mid : to, low ? mid : from, low ? to : mid);
            halves[k] = h;
            // the partial received is reduced with this rank's own partial of the same elements: after the first
            // step that is the result buffer itself, so the bytes come in through a piece buffer (intoRegion false)
            exchange(List.of(Xfer.send(h.peer(), elements(x, h.giveFrom(), h.giveTo()))),
                    List.of(Xfer.recvReduce(h.peer(), elements(result, h.keepFrom(), h.keepTo()), x.buf(),
                            x.off() + h.keepFrom() * elt, reducer, x.buf() != result.buf())));
            x = result;
            from = h.keepFrom();
            to = h.keepTo();
        }
        // doubling: the same partners in reverse, each sending the half it kept and receiving the half it gave
        for (int k = steps - 1; k >= 0; k--) {
            Halves h = halves[k];
            exchange(List.of(Xfer.send(h.peer(), elements(result, h.keepFrom(), h.keepTo()))),
                    List.of(Xfer.recv(h.peer(), elements(result, h.giveFrom(), h.giveTo()))));
        }
        if (rank < 2 * extra) {
            exchange(List.of(Xfer.send(rank - 1, region(result, bytes))), List.of());
        }
    }

    /** One halving step: the partner, the elements this rank keeps and reduces, those it gives the partner. */
    private record Halves(int peer, long keepFrom, long keepTo, long giveFrom, long giveTo) {
    }

    /** Elements [from, to) of a buffer as a byte region. */
    private ByteBuffer elements(At at, long from, long to) {
        return region(at, (int) (from * elt), (int) ((to - from) * elt));
    }

    /**
     * A rank beyond the largest power of two (even, below 2 x extra) takes no part in the steps: it hands its data to
     * rank + 1 and takes the result back. Returns whether this rank is one (its two exchanges are then planned).
     */
    private boolean handsOver(At send, At result, int bytes, int extra) {
        if (rank >= 2 * extra || rank % 2 != 0) {
            return false;
        }
        exchange(List.of(Xfer.send(rank + 1, region(send, bytes))), List.of());
        exchange(List.of(), List.of(Xfer.recv(rank + 1, region(result, bytes))));
        return true;
    }

    /** The rank of participant {@code index} of the power of two, when the first 2 x extra ranks fold in pairs. */
    private static int peerOf(int index, int extra) {
        return index < extra ? index * 2 + 1 : index + extra;
    }

    private void exchange(List<Xfer> sends, List<Xfer> recvs) {
        long total = 0;
        for (List<Xfer> xs : List.of(sends, recvs)) {
            for (Xfer x : xs) {
                total += x.bytes();
                smallestTransfer = Math.min(smallestTransfer, x.bytes());
                largestTransfer = Math.max(largestTransfer, x.bytes());
            }
        }
        largestExchange = Math.max(largestExchange, total);
        steps.add(() -> mesh.exchange(sends, recvs, what));
    }

    private void copy(At from, At to, int bytes) {
        if (same(from, to) || bytes == 0) {
            return;
        }
        ByteBuffer src = region(from, bytes);
        ByteBuffer dst = region(to, bytes);
        int s = src.position();
        int d = dst.position();
        steps.add(() -> {
            src.limit(s + bytes).position(s);
            dst.limit(d + bytes).position(d);
            dst.put(src);
        });
    }

    private static boolean same(At a, At b) {
        return a.buf() == b.buf() && a.off() == b.off();
    }

    private int mod(int x) {
        return ((x % n) + n) % n;
    }

    /** Byte offset of chunk i when {@code count} elements are cut into n chunks. */
    private int chunk(long count, int i) {
        return (int) (count * i / n) * elt;
    }

    private static ByteBuffer region(At at, int bytes) {
        return region(at, 0, bytes);
    }

    private static ByteBuffer region(At at, int off, int len) {
        // duplicate() resets the byte order to big-endian; the data is native-order
        ByteBuffer b = at.buf().duplicate().order(ByteOrder.nativeOrder());
        b.limit(at.off() + off + len).position(at.off() + off);
        return b;
    }
}
