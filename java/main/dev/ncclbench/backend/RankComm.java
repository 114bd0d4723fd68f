package dev.ncclbench.backend;

import dev.ncclbench.results.RankInfo;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** One rank's communicator. Used by one thread only. */
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

    /** NCCL debug log files this rank writes (empty when the backend has none). */
    default List<Path> logFiles() {
        return List.of();
    }

    @Override
    void close();
}
