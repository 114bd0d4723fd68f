package dev.ncclbench.backend;

import dev.ncclbench.spec.Capability;
import dev.ncclbench.results.RankInfo;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** One rank's communicator. Used by one thread only, but {@link #abort} may come from any. */
public interface RankComm extends AutoCloseable {

    int rank();

    int nranks();

    /** Host, pid, and what the rank drives (GPU or interface), for the header. */
    RankInfo info();

    Set<Capability> capabilities();

    /** Allocates buffers for one collective at one size and placement. */
    Operation prepare(Call call);

    /**
     * Called on every rank at the same point, with nothing in flight: after a collective's warm-ups, before its
     * first timed size. A backend whose connections keep state that the warm-ups' larger calls distort (TCP's
     * congestion control and reordering history) may start the timed sizes on new ones; others do nothing.
     *
     * @param largestBytes the collective's largest size in this sweep: the largest the warm-ups may have carried
     */
    default void beforeTimedSizes(long largestBytes) {
    }

    /**
     * The connections this rank holds to other ranks and how many peers they reach, where the backend makes its own
     * (the socket backend); null where the library keeps them (NCCL's are in its log).
     */
    default Links links() {
        return null;
    }

    /** @param peers distinct ranks connected to; connections: TCP connections to them (--sockets-per-peer each) */
    record Links(int peers, int connections) {
    }

    /**
     * The versions of what this backend loaded, as {@link dev.ncclbench.env.HostVersions}' keys (NCCL, the CUDA
     * runtime and driver API); empty for a backend that loads none. The host's own versions are recorded apart.
     */
    default java.util.Map<String, String> versions() {
        return java.util.Map.of();
    }

    /** NCCL debug log files this rank writes (empty when the backend has none). */
    default List<Path> logFiles() {
        return List.of();
    }

    /**
     * Stops this rank from any thread (another rank's thread on the first failure, a signal handler), while its owner
     * may be inside a call: the owner's calls then fail fast. Unlike {@link #close}, it releases nothing the owner may
     * still be using. By default a close, for backends whose close is safe from any thread.
     */
    default void abort() {
        close();
    }

    /** Releases everything: by the owning thread, or after it ended. */
    @Override
    void close();
}
