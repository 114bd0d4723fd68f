package dev.ncclbench.rendezvous;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection of the store: what has arrived, what waits to be written, and whose it is. A connection speaks for
 * the {@code count} ranks of one process from {@code first} on (one, or a process's local ranks: a node of 8 GPUs
 * holds one connection, not 8).
 */
final class StoreConnection {
    final SocketChannel ch;
    final SelectionKey key;
    final long opened = System.nanoTime();
    /** The challenge its hello must answer ({@link JobProof}). */
    byte[] nonce;
    /** The job its hello named; null before. */
    StoreJob job;
    ByteBuffer in = ByteBuffer.allocate(512);
    final java.util.ArrayDeque<ByteBuffer> out = new java.util.ArrayDeque<>();
    /** The first rank it speaks for; -1 before its hello. */
    int first = -1;
    int count;
    /** Its ranks that said goodbye, by rank - first. */
    boolean[] bye;
    int byes;
    boolean closeWhenFlushed;
    boolean gone;
    /** Answers queued while a gather's answers are being handed out: written once, together, at the end. */
    boolean held;

    StoreConnection(SocketChannel ch, SelectionKey key) {
        this.ch = ch;
        this.key = key;
    }

    boolean speaksFor(int rank) {
        return first >= 0 && rank >= first && rank < first + count;
    }
}
