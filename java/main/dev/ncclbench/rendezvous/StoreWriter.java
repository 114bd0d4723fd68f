package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The store's way out, on its one thread: what waits to be written to each connection, and writing it. Answers to a
 * connection leave in as few writes as the socket allows: a gather's answers to a process's ranks in one.
 */
final class StoreWriter {
    /** What a connection counts in before its hello names a job. */
    private final StoreTraffic strangers;
    /** The store's: closes a connection whose socket failed, or whose refusal is written. */
    private final Consumer<StoreConnection> drop;
    /** Connections with answers held back while a gather's answers are handed out ({@link #together}). */
    private final List<StoreConnection> held = new ArrayList<>();
    private boolean holding;

    StoreWriter(StoreTraffic strangers, Consumer<StoreConnection> drop) {
        this.strangers = strangers;
        this.drop = drop;
    }

    /** What a connection counts in: its job's, or the strangers' before its hello. */
    StoreTraffic traffic(StoreConnection c) {
        return c.job != null ? c.job.traffic : strangers;
    }

    void refuse(StoreConnection c, String why) {
        send(c, Wire.failure(ExitCode.USAGE, why));
        c.closeWhenFlushed = true;
        if (c.out.isEmpty()) {
            drop.accept(c);
        }
    }

    /** Queues {@code body} (shared: only a duplicate is consumed) and writes what the socket takes now: the hello's answers. */
    void send(StoreConnection c, ByteBuffer body) {
        if (c.gone) {
            return;
        }
        boolean wasEmpty = c.out.isEmpty();
        c.out.add(body.duplicate());
        traffic(c).queued(wasEmpty);
        traffic(c).wroteTo(c.first, body.remaining());
        if (wasEmpty) {
            flush(c);
        }
    }

    /**
     * An answer to {@code rank} ({@link Wire#EVERY_RANK}: to each rank of the connection), after its frame; written now,
     * or with the connection's other answers of the same gather once they are all handed out (one write for a process's
     * ranks, not one each).
     */
    void answer(StoreConnection c, int rank, ByteBuffer body) {
        if (c.gone) {
            return;
        }
        boolean wasEmpty = c.out.isEmpty();
        c.out.add(Wire.frame(rank, body.remaining()));
        c.out.add(body.duplicate());
        c.job.traffic.queued(wasEmpty);
        if (rank == Wire.EVERY_RANK) {
            c.job.traffic.wroteToEach(c.first, c.count, 8 + body.remaining()); // what each rank receives
        } else {
            c.job.traffic.wroteTo(rank, 8 + body.remaining());
        }
        if (holding) {
            if (!c.held) {
                c.held = true;
                held.add(c);
            }
        } else if (wasEmpty) {
            flush(c);
        }
    }

    /** Writes what the socket takes, in one call however many answers wait (a gathering write). */
    void flush(StoreConnection c) {
        try {
            while (!c.out.isEmpty()) {
                traffic(c).wrote(c.ch.write(c.out.toArray(new ByteBuffer[0])));
                while (!c.out.isEmpty() && !c.out.peek().hasRemaining()) {
                    c.out.poll();
                }
                if (!c.out.isEmpty()) {
                    interest(c, SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
            }
            interest(c, SelectionKey.OP_READ);
            traffic(c).flushed();
            if (c.closeWhenFlushed) {
                drop.accept(c);
            }
        } catch (IOException | java.nio.channels.CancelledKeyException e) {
            drop.accept(c);
        }
    }

    /**
     * Changes what the selector waits for on {@code c} only when it changes: most writes leave it as it was, and setting
     * it queues an update for the selector each time (reading it does not).
     */
    private static void interest(StoreConnection c, int ops) {
        if (c.key.interestOps() != ops) {
            c.key.interestOps(ops);
        }
    }

    /**
     * Hands out one gather's answers ({@code handOut} calls {@link #answer}): each connection's answers are written once
     * they are all queued, in one write for a process's ranks, not one each.
     */
    void together(Runnable handOut) {
        holding = true;
        try {
            handOut.run();
        } finally {
            holding = false;
            for (StoreConnection c : held) {
                c.held = false;
                flush(c);
            }
            held.clear();
        }
    }
}
