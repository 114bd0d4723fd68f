package dev.ncclbench.backend;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

/**
 * One collective call as the sweep asks a backend to prepare it: which collective, its counts for the size, the
 * element type, the reduction, the root and the placement.
 *
 * @param root    the root rank, -1 when the collective has none
 * @param inPlace whether the send data sits inside the receive buffer (nccl-tests' in-place columns)
 */
public record Call(Collective collective, Counts counts, DataType type, ReduceOp op, int root, boolean inPlace) {
}
