package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** One rank's connection to the store: the {@link ControlPlane} every backend and the sweep use. */
public final class StoreClient implements ControlPlane {
    private final int rank;
    private final int nranks;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String where;
    private static final byte[] EMPTY = new byte[0];

    /**
     * Connects, retrying until rank 0's store is up or {@code timeoutMillis} has passed.
     */
    public static StoreClient connect(InetSocketAddress store, byte[] token, int rank, int nranks, long timeoutMillis) {
        return connect(store, token, rank, nranks, timeoutMillis, null);
    }

    /**
     * @param flags the flags that change what this rank measures, one "flag value" a line (null: none to compare):
     *              a rank whose flags differ from the job's is refused, and the job ends (exit 2)
     */
    public static StoreClient connect(InetSocketAddress store, byte[] token, int rank, int nranks, long timeoutMillis,
                                      String flags) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        IOException last = null;
        while (System.nanoTime() < deadline) {
            Socket s = new Socket();
            try {
                s.connect(store, 5_000);
                return new StoreClient(s, token, rank, nranks, timeoutMillis, store.toString(), flags);
            } catch (NcclbenchException e) {
                closeQuietly(s);
                throw e;
            } catch (IOException e) {
                closeQuietly(s);
                last = e;
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new NcclbenchException(ExitCode.TIMEOUT, "rank " + rank + " could not reach the rendezvous store at "
                + store.getHostString() + ":" + store.getPort() + " within " + timeoutMillis / 1000 + " s"
                + (last == null ? "" : " (" + last.getMessage() + ")")
                + "; is rank 0 running, and are MASTER_ADDR/MASTER_PORT or --rendezvous the same on every rank?");
    }

    /** Says hello and presents the flags in one write, then reads both answers: one round trip, not two. */
    private StoreClient(Socket s, byte[] token, int rank, int nranks, long timeoutMillis, String where, String flags)
            throws IOException {
        this.rank = rank;
        this.nranks = nranks;
        this.socket = s;
        this.where = where;
        s.setTcpNoDelay(true);
        // a gather waits at most the store's timeout; the extra minute covers a store that died silently
        s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis + 60_000));
        in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
        out.writeInt(Wire.MAGIC);
        out.writeInt(Wire.VERSION);
        out.write(token, 0, Wire.TOKEN_BYTES);
        out.writeInt(rank);
        out.writeInt(nranks);
        boolean presents = flags != null && !flags.isEmpty();
        if (presents) {
            out.writeInt(Wire.OP_FLAGS);
            Wire.writeString(out, flags);
        }
        out.flush();
        if (in.readInt() != Wire.OK) {
            in.readInt();
            String why = Wire.readString(in, 4096);
            throw NcclbenchException.usage("the rendezvous store at " + where + " refused rank " + rank + ": " + why);
        }
        // the flags' answer: OK, or the verdict of a job whose ranks differ
        if (presents && in.readInt() != Wire.OK) {
            NcclbenchException e = failure();
            closeQuietly(socket);
            throw e;
        }
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int nranks() {
        return nranks;
    }

    @Override
    public byte[][] allGather(String tag, byte[] mine) {
        return exchange(Wire.ALL, 0, tag, mine);
    }

    @Override
    public byte[][] gather(String tag, byte[] mine, int root) {
        byte[][] got = exchange(Wire.TO_ROOT, root, tag, mine);
        return rank == root ? got : null;
    }

    @Override
    public byte[] broadcast(String tag, byte[] mine, int root) {
        return exchange(Wire.FROM_ROOT, root, tag, rank == root ? mine : new byte[0])[0];
    }

    @Override
    public void barrier(String tag) {
        exchange(Wire.NOTHING, 0, tag, EMPTY);
    }

    @Override
    public byte[][] fromPeers(String tag, byte[] mine, int[] peers) {
        return exchange(Wire.PEERS, 0, tag, mine, peers);
    }

    private byte[][] exchange(int mode, int root, String tag, byte[] mine) {
        return exchange(mode, root, tag, mine, null);
    }

    /** One gather; the answer holds as many payloads as {@code mode} gives this rank ({@code peers}: under PEERS). */
    private synchronized byte[][] exchange(int mode, int root, String tag, byte[] mine, int[] peers) {
        try {
            out.writeInt(Wire.OP_GATHER);
            out.writeInt(mode);
            out.writeInt(root);
            Wire.writeString(out, tag);
            Wire.writeBytes(out, mine);
            if (peers != null) {
                out.writeInt(peers.length);
                for (int p : peers) {
                    out.writeInt(p);
                }
            }
            out.flush();
            if (in.readInt() != Wire.OK) {
                throw failure();
            }
            int n = in.readInt();
            int expected = mode == Wire.ALL || (mode == Wire.TO_ROOT && rank == root) ? nranks
                    : mode == Wire.FROM_ROOT ? 1 : mode == Wire.PEERS ? peers.length : 0;
            if (n != expected) {
                throw new IOException("store answered " + n + " payloads where " + expected + " were due");
            }
            byte[][] all = new byte[n][];
            for (int i = 0; i < n; i++) {
                all[i] = Wire.readBytes(in, Wire.MAX_PAYLOAD);
            }
            return all;
        } catch (SocketTimeoutException e) {
            throw new NcclbenchException(ExitCode.TIMEOUT, "rank " + rank + ": no answer from the rendezvous store at "
                    + where + " for '" + tag + "' (rank 0 hung?)");
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.RUN_FAILED, "rank 0 lost: the rendezvous store at " + where
                    + " went away during '" + tag + "' (" + e.getMessage() + ")");
        }
    }

    @Override
    public synchronized NcclbenchException fault(boolean self, ExitCode code, String step, String message) {
        try {
            out.writeInt(Wire.OP_FAULT);
            out.writeInt(self ? 1 : 0);
            out.writeInt(code.code);
            Wire.writeString(out, clip(step == null ? "" : step, Wire.MAX_TAG));
            Wire.writeString(out, clip(message == null ? "" : message, Wire.MAX_TAG * 16));
            out.flush();
            if (in.readInt() == Wire.OK) {
                throw new IOException("the store answered a failure report with OK");
            }
            return failure();
        } catch (IOException e) {
            // no store to ask: this rank's own account is all there is
            return new NcclbenchException(code, message);
        }
    }

    /** The store's FAILED answer: the exit code it carries and its sentence. */
    private NcclbenchException failure() throws IOException {
        ExitCode code = ExitCode.of(in.readInt());
        return new NcclbenchException(code, Wire.readString(in, 1 << 16));
    }

    private static String clip(String s, int max) {
        return s.length() <= max / 4 ? s : s.substring(0, max / 4);
    }

    @Override
    public synchronized void close() {
        try {
            out.writeInt(Wire.OP_BYE);
            out.flush();
        } catch (IOException e) {
            // the store is gone already
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
