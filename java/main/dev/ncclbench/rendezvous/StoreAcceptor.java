package dev.ncclbench.rendezvous;

import java.io.Closeable;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The store's accepts, on a thread of their own: every rank of a big job connects at once, and the kernel's queue of
 * connections not yet accepted holds at most net.core.somaxconn; one it drops costs its rank a second (the SYN's
 * retransmission). Accepting apart from the selector's thread, which reads the hellos, keeps that queue short.
 */
final class StoreAcceptor {
    private final ServerSocketChannel server;
    private final Selector selector;
    private final ConcurrentLinkedQueue<SocketChannel> accepted = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    /** @param server a blocking channel; its accepts are handed to the thread that selects on {@code selector} */
    StoreAcceptor(ServerSocketChannel server, Selector selector) {
        this.server = server;
        this.selector = selector;
        this.thread = new Thread(this::acceptAll, "ncclbench-store-accept");
        thread.setDaemon(true);
        thread.start();
    }

    /** The next accepted connection (non-blocking, no delay), or null. */
    SocketChannel poll() {
        return accepted.poll();
    }

    private void acceptAll() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (ClosedChannelException e) {
                return; // the store is ending
            } catch (IOException e) {
                pause(); // out of file descriptors, say: one frees when a connection closes
                continue;
            }
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                closeQuietly(ch); // gone before it said anything
                continue;
            }
            // one wakeup per batch: the selector's thread takes every connection queued when it looks
            boolean first = accepted.isEmpty();
            accepted.add(ch);
            if (first) {
                selector.wakeup();
            }
        }
    }

    /** Stops accepting and closes what was accepted and not taken. */
    void close() {
        closed = true;
        closeQuietly(server);
        for (SocketChannel ch; (ch = accepted.poll()) != null; ) {
            closeQuietly(ch);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(StoreServer.TICK_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing
        }
    }
}
