package dev.ncclbench.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * The flags that change what a rank measures, one "flag value" a line, in the words of the command line: what
 * every process of one job presents at the rendezvous, so that two processes started differently stop at once
 * with the flag named ("-d double on rank 1, -d float on rank 0") rather than later with a lost rank. Which flags
 * is {@link SweepFlag}'s column "must agree": not -T, the outputs or the progress bar, which may differ without
 * changing a figure.
 */
public final class MeasuredFlags {
    private MeasuredFlags() {
    }

    public static String of(RunSpec spec) {
        List<String> lines = new ArrayList<>();
        for (SweepFlag f : SweepFlag.values()) {
            if (f.mustAgree()) {
                lines.add(f.given(spec));
            }
        }
        if (spec.ncclTests().split() != null) {
            lines.add(spec.ncclTests().split()); // one process's groups must be every process's
        }
        if (spec.ncclTests().alltoallvSpread() != null) {
            // alltoallv's per-peer counts: a rank with another pattern would send what its peers do not expect
            lines.add("NCCL_TESTS_ALLTOALLV_SPREAD " + spec.ncclTests().alltoallvSpread());
        }
        return String.join("\n", lines);
    }
}
