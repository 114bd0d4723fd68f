package dev.ncclbench.rendezvous;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/** One connection of the store: what has arrived, what waits to be written, and whose it is. */
final class StoreConnection {
    final SocketChannel ch;
    final SelectionKey key;
    final long opened = System.nanoTime();
    ByteBuffer in = ByteBuffer.allocate(512);
    final java.util.ArrayDeque<ByteBuffer> out = new java.util.ArrayDeque<>();
    int rank = -1;
    boolean bye;
    boolean closeWhenFlushed;
    boolean gone;

    StoreConnection(SocketChannel ch, SelectionKey key) {
        this.ch = ch;
        this.key = key;
    }
}
