package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;

/**
 * The small TCP store rank 0 serves. It only gathers: every rank sends a payload under a tag, and once all
 * have arrived every rank gets all of them. A client must present the job's token; a rank whose connection
 * drops without saying goodbye is lost, and every gather after that fails naming it.
 */
public final class StoreServer implements AutoCloseable {
    private final ServerSocket server;
    private final byte[] token;
    private final int nranks;
    private final StoreState state;
    private final Map<Integer, Socket> clients = new HashMap<>();
    private final Thread acceptor;
    private volatile boolean closed;

    /**
     * @param bind          where to listen (port 0: any free port)
     * @param timeoutMillis how long a gather waits for the last rank once the first has arrived
     */
    public StoreServer(InetSocketAddress bind, byte[] token, int nranks, long timeoutMillis) throws IOException {
        this.token = token.clone();
        this.nranks = nranks;
        this.state = new StoreState(nranks, timeoutMillis);
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
                Wire.writeFailure(out, ExitCode.USAGE, refusal);
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
                    state.departed(rank);
                    return;
                }
                if (op == Wire.OP_FAULT) {
                    boolean self = in.readInt() != 0;
                    ExitCode code = ExitCode.of(in.readInt());
                    String step = Wire.readString(in, Wire.MAX_TAG);
                    String message = Wire.readString(in, Wire.MAX_TAG * 16);
                    reply(out, state.fault(rank, self, code, step, message));
                    continue;
                }
                if (op != Wire.OP_GATHER) {
                    throw new IOException("unknown request " + op);
                }
                String tag = Wire.readString(in, Wire.MAX_TAG);
                byte[] payload = Wire.readBytes(in, Wire.MAX_PAYLOAD);
                reply(out, state.gather(rank, tag, payload));
            }
        } catch (IOException e) {
            // falls through to the lost-rank bookkeeping below
        } finally {
            if (rank >= 0) {
                synchronized (this) {
                    clients.remove(rank);
                }
                if (!bye && !closed) {
                    state.lost(rank, "its connection to the rendezvous closed (process killed or crashed?)");
                }
            }
        }
    }

    private static void reply(DataOutputStream out, Object result) throws IOException {
        if (result instanceof StoreState.Verdict v) {
            Wire.writeFailure(out, v.code(), v.message());
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
        }
        state.close();
    }
}
