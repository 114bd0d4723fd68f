package dev.ncclbench.backend.socket;

import dev.ncclbench.ExitCode;
import dev.ncclbench.HangReport;
import dev.ncclbench.backend.BackendException;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Connects the mesh, full or only the peers a rank's collectives use ({@link Peers}): rank r dials every higher
 * linked rank and accepts every lower one. Whatever goes wrong
 * (a refused dial, a stray hello, lower ranks that never connect) closes every link made so far, the
 * accepted ones included, before the one exception leaves: a failed start never leaks sockets.
 */
final class MeshLinks {
    private static final int SOCKET_BUFFER = 4 << 20;

    private MeshLinks() {
    }

    /** @return the links by peer rank and link index; the row of this rank stays empty */
    static SocketChannel[][] connect(int rank, int nranks, int perPeer, ServerSocketChannel listener,
                                     List<InetSocketAddress> addresses, long timeoutMillis) {
        return connect(rank, nranks, perPeer, listener, addresses, timeoutMillis, Peers.all(rank, nranks));
    }

    /**
     * Only the links to the peers in {@code linked} ({@link Peers}: symmetric, so both ends expect the same ones);
     * the rows of the others stay empty.
     */
    static SocketChannel[][] connect(int rank, int nranks, int perPeer, ServerSocketChannel listener,
                                     List<InetSocketAddress> addresses, long timeoutMillis, boolean[] linked) {
        SocketChannel[][] ch = new SocketChannel[nranks][perPeer];
        List<SocketChannel> accepted = new ArrayList<>();
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        Thread acceptor = null;
        try {
            int lower = 0;
            for (int peer = 0; peer < rank; peer++) {
                lower += linked[peer] ? 1 : 0;
            }
            int expected = lower * perPeer;
            IOException[] acceptError = new IOException[1];
            if (expected > 0) {
                acceptor = new Thread(() -> {
                    try {
                        for (int i = 0; i < expected; i++) {
                            SocketChannel s = listener.accept();
                            synchronized (accepted) {
                                accepted.add(s);
                            }
                            configure(s);
                            DataInputStream in = new DataInputStream(s.socket().getInputStream());
                            int peer = in.readInt();
                            int index = in.readInt();
                            if (peer < 0 || peer >= rank || !linked[peer] || index < 0 || index >= perPeer
                                    || ch[peer][index] != null) {
                                throw new IOException("unexpected connection claiming rank " + peer + " link " + index);
                            }
                            ch[peer][index] = s;
                        }
                    } catch (IOException e) {
                        acceptError[0] = e;
                    }
                }, "ncclbench-rank" + rank + "-accept");
                acceptor.setDaemon(true);
                acceptor.start();
            }
            for (int peer = rank + 1; peer < nranks; peer++) {
                for (int i = 0; i < perPeer && linked[peer]; i++) {
                    ch[peer][i] = dial(addresses.get(peer), rank, i, peer, deadline);
                }
            }
            if (acceptor != null) {
                acceptor.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                if (acceptor.isAlive()) {
                    throw new BackendException(ExitCode.TIMEOUT, "rank " + rank + ": " + missing(ch, rank, linked)
                            + " did not connect within " + Math.max(1, timeoutMillis / 1000) + " s",
                            "check that every rank can reach the others on the chosen interface (NCCL_SOCKET_IFNAME)");
                }
                if (acceptError[0] != null) {
                    throw acceptError[0];
                }
            }
            return ch;
        } catch (IOException e) {
            abandon(listener, acceptor, ch, accepted);
            throw new BackendException(ExitCode.RUN_FAILED, "rank " + rank + ": could not connect the socket mesh: "
                    + e.getMessage(), "check firewalls and NCCL_SOCKET_IFNAME on every node", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(listener, acceptor, ch, accepted);
            throw new BackendException(ExitCode.RUN_FAILED, "interrupted while connecting", null, e);
        } catch (RuntimeException e) {
            abandon(listener, acceptor, ch, accepted);
            throw e;
        }
    }

    /** "rank 0", "ranks 0 and 2", "12 ranks (0-3, ... and 4 more)": the lower ranks with a link still missing. */
    private static String missing(SocketChannel[][] ch, int rank, boolean[] linked) {
        List<Integer> ranks = new ArrayList<>();
        for (int peer = 0; peer < rank; peer++) {
            if (!linked[peer]) {
                continue;
            }
            for (SocketChannel s : ch[peer]) {
                if (s == null) {
                    ranks.add(peer);
                    break;
                }
            }
        }
        // alltoall links every rank: at 8192 ranks the list alone would be a page (HangReport counts past 8)
        return HangReport.ranks(ranks);
    }

    /** Stops the acceptor (closing the listener wakes its accept) and closes every link it or we made. */
    private static void abandon(ServerSocketChannel listener, Thread acceptor, SocketChannel[][] ch,
                                List<SocketChannel> accepted) {
        if (acceptor != null) {
            close(listener);
            synchronized (accepted) {
                accepted.forEach(MeshLinks::close);
            }
        }
        closeAll(ch);
    }

    private static SocketChannel dial(InetSocketAddress to, int rank, int index, int peer, long deadline)
            throws IOException {
        IOException last = null;
        while (System.nanoTime() < deadline) {
            SocketChannel s = SocketChannel.open();
            try {
                configure(s);
                s.connect(to);
                ByteBuffer hello = ByteBuffer.allocate(8).putInt(rank).putInt(index).flip();
                while (hello.hasRemaining()) {
                    s.write(hello);
                }
                return s;
            } catch (IOException e) {
                s.close();
                last = e;
                try {
                    // the peer's listener may not be up yet: retry until the deadline, not in a hot loop
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new IOException("rank " + peer + " at " + to + " did not accept" + (last == null ? "" : ": " + last.getMessage()));
    }

    static void configure(SocketChannel s) throws IOException {
        s.setOption(StandardSocketOptions.TCP_NODELAY, true);
        s.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER);
        s.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER);
    }

    /** The peers with a link held. */
    static int peers(SocketChannel[][] ch) {
        int p = 0;
        for (SocketChannel[] row : ch) {
            p += row != null && row.length > 0 && row[0] != null ? 1 : 0;
        }
        return p;
    }

    /** The links held (open or not yet closed). */
    static int count(SocketChannel[][] ch) {
        int c = 0;
        for (SocketChannel[] row : ch) {
            for (SocketChannel s : row) {
                c += s != null ? 1 : 0;
            }
        }
        return c;
    }

    static void closeAll(SocketChannel[][] ch) {
        for (SocketChannel[] row : ch) {
            for (SocketChannel s : row) {
                if (s != null) {
                    close(s);
                }
            }
        }
    }

    static void close(java.nio.channels.Channel c) {
        try {
            c.close();
        } catch (IOException e) {
            // already failing: the first error is the one reported
        }
    }
}
