package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.launch.HostName;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * One rank's view of the store: the {@link ControlPlane} every backend and the sweep use. The ranks of one process
 * share one connection ({@link #connectAll}); every call is still this rank's own, so a rank that hangs or fails is
 * named as before.
 */
public final class StoreClient implements ControlPlane {
    private final StoreLink link;
    private final int rank;
    private final int nranks;
    private boolean closed;
    private static final byte[] EMPTY = new byte[0];

    private StoreClient(StoreLink link, int rank, int nranks) {
        this.link = link;
        this.rank = rank;
        this.nranks = nranks;
    }

    /**
     * Connects, retrying until rank 0's store is up or {@code timeoutMillis} has passed. The store knows this node by
     * its kernel's host name: a caller that has the environment (a scheduler's node name) passes the name itself.
     */
    public static StoreClient connect(InetSocketAddress store, byte[] token, int rank, int nranks, long timeoutMillis) {
        return connect(store, token, rank, nranks, timeoutMillis, null);
    }

    /** @param node this node's name, as the scheduler and NCCL know it ({@link HostName#node}) */
    public static StoreClient connect(InetSocketAddress store, byte[] token, int rank, int nranks, long timeoutMillis,
                                      String flags, String node) {
        return connectAll(store, token, rank, 1, nranks, timeoutMillis, flags, node).get(0);
    }

    /**
     * @param flags the flags that change what this rank measures, one "flag value" a line (null: none to compare):
     *              a rank whose flags differ from the job's is refused, and the job ends (exit 2)
     */
    public static StoreClient connect(InetSocketAddress store, byte[] token, int rank, int nranks, long timeoutMillis,
                                      String flags) {
        return connect(store, token, rank, nranks, timeoutMillis, flags, HostName.kernel());
    }

    /**
     * The control planes of ranks {@code first} to {@code first + count - 1}, a process's local ranks, over one
     * connection: a job of 1024 nodes x 8 ranks holds 1024 connections to the store, and a gather's answers reach a
     * node in one write.
     */
    public static List<StoreClient> connectAll(InetSocketAddress store, byte[] token, int first, int count, int nranks,
                                               long timeoutMillis, String flags) {
        return connectAll(store, token, first, count, nranks, timeoutMillis, flags, HostName.kernel());
    }

    /** @param node this node's name, as the scheduler and NCCL know it ({@link HostName#node}) */
    public static List<StoreClient> connectAll(InetSocketAddress store, byte[] token, int first, int count, int nranks,
                                               long timeoutMillis, String flags, String node) {
        StoreLink link = StoreLink.connect(store, token, first, count, nranks, timeoutMillis, flags, node);
        List<StoreClient> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new StoreClient(link, first + i, nranks));
        }
        return out;
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
        if (nranks == 1) {
            // a job of one rank meets nobody: answered here, as nccl-tests' one-thread barrier costs nothing (-z 1 on
            // one H200 paid a loopback round trip to the store, 33-74 us an iteration)
            int n = mode == Wire.ALL || mode == Wire.TO_ROOT || mode == Wire.FROM_ROOT ? 1
                    : mode == Wire.PEERS ? peers.length : 0;
            byte[][] all = new byte[n][];
            java.util.Arrays.fill(all, mine);
            return all;
        }
        try {
            link.gather(rank, mode, root, tag, mine, peers);
            DataInputStream in = answer();
            if (in.readInt() != Wire.OK) {
                throw failure(in);
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
                    + link.where + " for '" + tag + "' (rank 0 hung?)");
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.RUN_FAILED, "rank 0 lost: the rendezvous store at " + link.where
                    + " went away during '" + tag + "' (" + e.getMessage() + ")");
        }
    }

    private DataInputStream answer() throws IOException {
        return new DataInputStream(new ByteArrayInputStream(link.receive(rank)));
    }

    @Override
    public synchronized NcclbenchException fault(boolean self, ExitCode code, String step, String message) {
        try {
            link.send(rank, StoreLink.request(out -> {
                out.writeInt(Wire.OP_FAULT);
                out.writeInt(self ? 1 : 0);
                out.writeInt(code.code);
                Wire.writeString(out, clip(step == null ? "" : step, Wire.MAX_TAG));
                Wire.writeString(out, clip(message == null ? "" : message, Wire.MAX_TAG * 16));
            }));
            DataInputStream in = answer();
            if (in.readInt() == Wire.OK) {
                throw new IOException("the store answered a failure report with OK");
            }
            return failure(in);
        } catch (IOException e) {
            // no store to ask: this rank's own account is all there is
            return new NcclbenchException(code, message);
        }
    }

    /** The store's FAILED answer: the exit code it carries and its sentence. */
    private static NcclbenchException failure(DataInputStream in) throws IOException {
        ExitCode code = ExitCode.of(in.readInt());
        return new NcclbenchException(code, Wire.readString(in, 1 << 16));
    }

    private static String clip(String s, int max) {
        return s.length() <= max / 4 ? s : s.substring(0, max / 4);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            link.bye(rank);
        }
    }
}
