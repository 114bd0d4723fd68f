package dev.ncclbench.sweep;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;
import dev.ncclbench.spec.RunSpec;

import java.util.List;

/**
 * The collectives of a sweep that nccl-tests would not run on this many ranks (hypercube off a power of two: it
 * prints a line and measures nothing), named in the header; and alltoallv's modes that are not here, refused.
 */
final class Skips {
    private Skips() {
    }

    /** @param nranks the ranks of one communicator (the group's under NCCL_TESTS_SPLIT) */
    static void add(RunSpec spec, int nranks, Host host, List<String> notes) {
        for (String name : spec.collectives()) {
            Collective c = spec.collective(name);
            String skip = c.skipOn(nranks);
            if (skip != null) {
                notes.add(c.name() + ": " + skip + " (as nccl-tests: no rows)");
            }
        }
        if (spec.collectives().contains("alltoallv")) {
            for (Variable unread : List.of(Variable.NCCL_TESTS_ALLTOALLV_MATRIX_FILE, Variable.NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY)) {
                if (host.get(unread) != null) {
                    throw NcclbenchException.usage(unread + "=" + host.get(unread) + " is set: ncclbench's alltoallv runs"
                            + " nccl-tests' generated pattern only (NCCL_TESTS_ALLTOALLV_SPREAD), not its traffic-matrix"
                            + " mode or per-rank summary; unset it");
                }
            }
        }
    }
}
