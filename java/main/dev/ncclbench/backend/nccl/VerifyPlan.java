package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One rank's output cut into the runs the verify kernels check in one launch: a run of copies of one
 * source rank's consecutive inputs (verify_copy), or a run of reductions of consecutive input indices
 * (verify_reduced). Every collective's output is made of blocks of paramCount elements that are affine in
 * {@link Collective#source}; a block that is not (a collective this planner does not know) makes the plan
 * empty, and the caller verifies on the host.
 */
final class VerifyPlan {
    /**
     * @param offset      first output element of the run
     * @param count       elements in the run
     * @param reduced     true: reductions of inputs firstIndex..; false: copies of srcRank's inputs firstIndex..
     * @param srcRank     the source rank of a copy run (unused for reduced runs)
     * @param firstIndex  the input index of the run's first element
     */
    record Run(long offset, long count, boolean reduced, int srcRank, long firstIndex) {
    }

    private VerifyPlan() {
    }

    static Optional<List<Run>> of(Collective c, int rank, Counts counts, int nranks, int root, int eb) {
        List<Run> runs = new ArrayList<>();
        if (!c.hasOutput(rank, root) || counts.recvCount() == 0) {
            return Optional.of(runs);
        }
        long[] cuts = c.segments(rank, counts, nranks, eb);
        if (cuts == null) {
            long block = counts.paramCount() > 0 && counts.recvCount() % counts.paramCount() == 0
                    ? counts.paramCount() : counts.recvCount();
            List<Long> even = new ArrayList<>();
            for (long start = 0; start < counts.recvCount(); start += block) {
                even.add(start);
            }
            even.add(counts.recvCount());
            cuts = even.stream().mapToLong(Long::longValue).toArray();
        } else if (cuts[cuts.length - 1] < counts.recvCount()) {
            // the tail no source writes (nccl-tests zeroes it in both buffers): unchecked
            cuts = java.util.Arrays.copyOf(cuts, cuts.length + 1);
            cuts[cuts.length - 1] = counts.recvCount();
        }
        for (int k = 0; k + 1 < cuts.length; k++) {
            long start = cuts[k];
            if (cuts[k + 1] <= start) {
                continue; // an empty segment
            }
            long end = cuts[k + 1] - 1;
            long a = c.source(rank, start, counts, nranks, root, eb);
            long b = c.source(rank, end, counts, nranks, root, eb);
            long len = end - start + 1;
            if (a == Collective.UNCHECKED && b == Collective.UNCHECKED) {
                continue;
            }
            if (a == Collective.REDUCED && b == Collective.REDUCED) {
                long i0 = c.reducedIndex(rank, start, counts, nranks);
                if (c.reducedIndex(rank, end, counts, nranks) - i0 != len - 1) {
                    return Optional.empty();
                }
                runs.add(new Run(start, len, true, -1, i0));
                continue;
            }
            if (a < 0 || b < 0 || (a >>> 32) != (b >>> 32) || (b & 0xFFFFFFFFL) - (a & 0xFFFFFFFFL) != len - 1) {
                return Optional.empty();
            }
            runs.add(new Run(start, len, false, (int) (a >>> 32), a & 0xFFFFFFFFL));
        }
        return Optional.of(runs);
    }
}
