package dev.ncclbench.rendezvous;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The small TCP store rank 0 serves. It only gathers: every rank sends a payload under a tag, and once all
 * have arrived every rank gets all of them. A client must present the job's token; a rank whose connection
 * drops without saying goodbye is lost, and every gather after that fails naming it.
 */
public final class StoreServer implements AutoCloseable {
    private final ServerSocket server;
    private final byte[] token;
    private final int nranks;
    private final long timeoutMillis;
    private final Map<String, Round> rounds = new HashMap<>();
    private final Map<Integer, String> lost = new TreeMap<>();
    private final Map<Integer, Socket> clients = new HashMap<>();
    private final Thread acceptor;
    private volatile boolean closed;

    private static final class Round {
        final byte[][] payloads;
        int arrived;
        int replied;
        final long firstArrival = System.nanoTime();

        Round(int n) {
            payloads = new byte[n][];
        }
    }

    /**
     * @param bind          where to listen (port 0: any free port)
     * @param timeoutMillis how long a gather waits for the last rank once the first has arrived
     */
    public StoreServer(InetSocketAddress bind, byte[] token, int nranks, long timeoutMillis) throws IOException {
        this.token = token.clone();
        this.nranks = nranks;
        this.timeoutMillis = timeoutMillis;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(bind, 1024);
        acceptor = new Thread(this::acceptLoop, "ncclbench-store-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> serve(s), "ncclbench-store-client");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    private void serve(Socket s) {
        int rank = -1;
        boolean bye = false;
        try (s) {
            s.setTcpNoDelay(true);
            // a stranger that connects and says nothing must not hold a thread for ever
            s.setSoTimeout(30_000);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            if (in.readInt() != Wire.MAGIC) {
                return;
            }
            int version = in.readInt();
            byte[] presented = new byte[Wire.TOKEN_BYTES];
            in.readFully(presented);
            int r = in.readInt();
            int n = in.readInt();
            String refusal = null;
            if (version != Wire.VERSION) {
                refusal = "protocol version " + version + " (this store speaks " + Wire.VERSION + ")";
            } else if (!MessageDigest.isEqual(presented, token)) {
                refusal = "wrong job token: this store belongs to another job";
            } else if (n != nranks || r < 0 || r >= nranks) {
                refusal = "rank " + r + " of " + n + " does not fit a job of " + nranks + " ranks";
            } else {
                synchronized (this) {
                    if (clients.containsKey(r)) {
                        refusal = "rank " + r + " is already connected";
                    } else {
                        clients.put(r, s);
                    }
                }
            }
            if (refusal != null) {
                out.writeInt(Wire.FAILED);
                Wire.writeString(out, refusal);
                out.flush();
                return;
            }
            rank = r;
            out.writeInt(Wire.OK);
            out.flush();
            s.setSoTimeout(0);
            while (true) {
                int op = in.readInt();
                if (op == Wire.OP_BYE) {
                    bye = true;
                    return;
                }
                if (op != Wire.OP_GATHER) {
                    throw new IOException("unknown request " + op);
                }
                String tag = Wire.readString(in, Wire.MAX_TAG);
                byte[] payload = Wire.readBytes(in, Wire.MAX_PAYLOAD);
                reply(out, gather(rank, tag, payload));
            }
        } catch (IOException e) {
            // falls through to the lost-rank bookkeeping below
        } finally {
            if (rank >= 0) {
                synchronized (this) {
                    clients.remove(rank);
                    if (!bye && !closed) {
                        lost.putIfAbsent(rank, "its connection to the rendezvous closed (process killed or crashed?)");
                    }
                    notifyAll();
                }
            }
        }
    }

    private static void reply(DataOutputStream out, Object result) throws IOException {
        if (result instanceof String error) {
            out.writeInt(Wire.FAILED);
            Wire.writeString(out, error);
        } else {
            byte[][] all = (byte[][]) result;
            out.writeInt(Wire.OK);
            out.writeInt(all.length);
            for (byte[] b : all) {
                Wire.writeBytes(out, b);
            }
        }
        out.flush();
    }

    /** Returns every payload, or a String saying why the gather failed. */
    private synchronized Object gather(int rank, String tag, byte[] payload) {
        Round round = rounds.computeIfAbsent(tag, t -> new Round(nranks));
        if (round.payloads[rank] != null) {
            return "rank " + rank + " sent tag '" + tag + "' twice";
        }
        round.payloads[rank] = payload;
        round.arrived++;
        notifyAll();
        while (round.arrived < nranks) {
            if (!lost.isEmpty()) {
                return lostMessage();
            }
            if (closed) {
                return "the rendezvous store closed";
            }
            long waited = (System.nanoTime() - round.firstArrival) / 1_000_000;
            if (waited >= timeoutMillis) {
                return "ranks " + missing(round) + " did not reach '" + tag + "' within " + (timeoutMillis / 1000)
                        + " s (hung or too slow; -T sets this limit)";
            }
            try {
                wait(Math.max(1, Math.min(1000, timeoutMillis - waited)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        byte[][] all = round.payloads.clone();
        if (++round.replied == nranks) {
            rounds.remove(tag);
        }
        return all;
    }

    private String lostMessage() {
        StringBuilder sb = new StringBuilder();
        lost.forEach((r, why) -> sb.append(sb.length() == 0 ? "" : "; ").append("rank ").append(r).append(" lost: ").append(why));
        return sb.toString();
    }

    private static List<Integer> missing(Round round) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < round.payloads.length; i++) {
            if (round.payloads[i] == null) {
                out.add(i);
            }
        }
        return out;
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
        synchronized (this) {
            for (Socket s : clients.values()) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing
                }
            }
            notifyAll();
        }
    }
}
