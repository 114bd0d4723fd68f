package dev.ncclbench.backend.socket;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A send or a receive of one exchange: a peer and a region of a buffer; for a reducing receive, the region
 * receives {@code a[aOffset + i] op incoming[i]}. An Xfer can be run again and again (a planned collective
 * reuses its transfers every call, so the timed loop allocates nothing): each exchange starts it from its
 * region's original bounds.
 */
final class Xfer {
    private final int peer;
    private final ByteBuffer region;
    private final int start;
    private final int end;
    private final ByteBuffer reduceA;
    private final long reduceAOffset;
    private final Reducer reducer;
    private final boolean intoRegion;
    /** The region cut per connection (see {@link Mesh#slices}), kept once computed; bounds in sliceStart/End. */
    ByteBuffer[] slices;
    int[] sliceStart;
    int[] sliceEnd;

    private Xfer(int peer, ByteBuffer region, ByteBuffer reduceA, long reduceAOffset, Reducer reducer, boolean intoRegion) {
        this.peer = peer;
        // our own view: the exchange moves its position, and the caller's buffer must not see that
        this.region = region.duplicate().order(ByteOrder.nativeOrder());
        this.start = region.position();
        this.end = region.limit();
        this.reduceA = reduceA;
        this.reduceAOffset = reduceAOffset;
        this.reducer = reducer;
        this.intoRegion = intoRegion;
    }

    static Xfer send(int peer, ByteBuffer region) {
        return new Xfer(peer, region, null, 0, null, false);
    }

    static Xfer recv(int peer, ByteBuffer region) {
        return new Xfer(peer, region, null, 0, null, false);
    }

    /**
     * Receive into region, storing {@code a[aOffset + i] op incoming[i]}.
     *
     * @param intoRegion a shares no bytes with the region, so the incoming bytes may land in the region itself and
     *                   be reduced there (the blocking path does: see {@link Mesh})
     */
    static Xfer recvReduce(int peer, ByteBuffer region, ByteBuffer a, long aOffset, Reducer reducer, boolean intoRegion) {
        return new Xfer(peer, region, a, aOffset, reducer, intoRegion);
    }

    int peer() {
        return peer;
    }

    /** The region, at its original bounds. */
    ByteBuffer region() {
        region.limit(end).position(start);
        return region;
    }

    int bytes() {
        return end - start;
    }

    int start() {
        return start;
    }

    ByteBuffer reduceA() {
        return reduceA;
    }

    long reduceAOffset() {
        return reduceAOffset;
    }

    Reducer reducer() {
        return reducer;
    }

    boolean intoRegion() {
        return intoRegion;
    }

    /** Slice i back at its original bounds. */
    ByteBuffer slice(int i) {
        ByteBuffer s = slices[i];
        s.limit(sliceEnd[i]).position(sliceStart[i]);
        return s;
    }
}
