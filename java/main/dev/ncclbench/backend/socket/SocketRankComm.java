package dev.ncclbench.backend.socket;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.Call;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.results.RankInfo;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;

/**
 * One rank of the socket backend: its mesh and its buffers, made once at the sweep's largest size and reused across
 * sizes, as nccl-tests allocates its buffers once at maxBytes. Grown size by size, they were replaced at every size
 * of a sweep by -i 1M (the old ones free only when the garbage collector ran): a 33-size sweep to 64 MiB on 4 ranks
 * reached 6 GB of memory, where its buffers are 768 MiB.
 */
final class SocketRankComm implements RankComm {
    private final Mesh mesh;
    private final RankInfo info;
    private final SocketTuning tuning;
    /** The largest buffer the sweep needs (bytes): what every buffer is made with, whatever size comes first. */
    private final long largestBuffer;
    private ByteBuffer main;
    private ByteBuffer send;
    private ByteBuffer scratch;

    SocketRankComm(Mesh mesh, RankInfo info, SocketTuning tuning) {
        this(mesh, info, tuning, 0);
    }

    /** @param largestBuffer the sweep's largest buffer (bytes), or 0 to make each buffer as large as its first use */
    SocketRankComm(Mesh mesh, RankInfo info, SocketTuning tuning, long largestBuffer) {
        this.mesh = mesh;
        this.info = info;
        this.tuning = tuning;
        this.largestBuffer = largestBuffer;
    }

    SocketTuning tuning() {
        return tuning;
    }

    @Override
    public int rank() {
        return mesh.rank();
    }

    @Override
    public int nranks() {
        return mesh.nranks();
    }

    /** The TCP connections this rank holds to its peers (tests count them: only the peers its collectives use). */
    int connections() {
        return mesh.connections();
    }

    @Override
    public Links links() {
        return new Links(mesh.peers(), mesh.connections());
    }

    @Override
    public RankInfo info() {
        return info;
    }

    @Override
    public Set<Capability> capabilities() {
        return Set.of();
    }

    Mesh mesh() {
        return mesh;
    }

    @Override
    public Operation prepare(Call call) {
        Collective c = call.collective();
        Counts counts = call.counts();
        DataType type = call.type();
        if (c.reduces() && !Reducer.supports(type)) {
            throw new BackendException(ExitCode.USAGE, "the socket backend reduces float, double, int32 and int64, not "
                    + type.label(), "use -d float (or the nccl backend)");
        }
        long elt = type.bytes();
        long mainBytes = Math.max(counts.sendCount(), counts.recvCount()) * elt;
        long sendBytes = counts.sendCount() * elt;
        if (mainBytes > Integer.MAX_VALUE - 8) {
            throw new BackendException(ExitCode.USAGE, "the socket backend holds at most 2 GiB per buffer; "
                    + c.name() + " at this size needs " + mainBytes + " bytes", "lower -e");
        }
        main = ensure(main, mainBytes);
        send = ensure(send, sendBytes);
        scratch = ensure(scratch, mainBytes);
        return new SocketOperation(this, call, main, send, scratch);
    }

    private ByteBuffer ensure(ByteBuffer b, long bytes) {
        long want = Math.max(Math.max(bytes, 64), Math.min(largestBuffer, Integer.MAX_VALUE - 8));
        if (b != null && b.capacity() >= Math.max(bytes, 64)) {
            return b;
        }
        return ByteBuffer.allocateDirect((int) want).order(ByteOrder.nativeOrder());
    }


    /**
     * Connections that carried calls of {@value #HISTORY_BYTES} bytes or more (the warm-ups: nccl-tests' -w at every
     * size up to -e, the code warm-up's steps) are replaced before the timed sizes: see {@link Mesh#reconnect}. Below
     * that the warm-ups leave TCP nothing to unlearn (2 MiB alone showed no reordering, 8 MiB did), and new
     * connections have first exchanges of their own that the old ones are past (the 8 B and 512 KiB stalls that
     * {@link Mesh#reconnect}'s break-in only partly removes): a sweep up to 512 KiB keeps its connections.
     */
    static final long HISTORY_BYTES = 8L << 20;

    @Override
    public void beforeTimedSizes(long largestBytes) {
        if (largestBytes >= HISTORY_BYTES) {
            mesh.reconnect();
        }
    }

    @Override
    public void close() {
        mesh.close();
        main = null;
        send = null;
        scratch = null;
    }
}
