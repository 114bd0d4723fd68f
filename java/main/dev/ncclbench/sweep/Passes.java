package dev.ncclbench.sweep;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.spec.RunSpec;

import java.util.ArrayList;
import java.util.List;

/** nccl-tests' loops around TimeTest (-d all, -o all) and its -C time column, for SweepEngine. */
final class Passes {
    private Passes() {
    }

    /**
     * nccl-tests' loops of a collective's runTest: each type of -d, and for a reducing collective each op of -o, in
     * that order; the pairs the backend cannot run ({@link dev.ncclbench.spec.RunSpec.NcclTestsFlags#skipped}, and
     * mulsum, which no backend here has) are left out: the header names them.
     */
    static List<RunSpec> of(RunSpec spec, Collective coll) {
        List<RunSpec> out = new ArrayList<>();
        List<String> skipped = spec.ncclTests().skipped();
        for (DataType t : spec.types()) {
            if (skipped.contains(t.label())) {
                continue;
            }
            for (String opName : coll.reduces() ? spec.ops() : List.of(spec.op().label())) {
                ReduceOp op = ReduceOp.parse(opName);
                if (coll.reduces() && (op == null || skipped.contains(t.label() + " " + opName))) {
                    continue;
                }
                out.add(spec.types().size() == 1 && spec.ops().size() == 1 ? spec
                        : spec.toBuilder().type(t).op(op == null ? spec.op() : op).build());
            }
        }
        return out;
    }

    /** -C 1: this process's cputime in the time column (nccl-tests does not combine it by -a), bandwidths kept. */
    static Measurement cputime(Measurement m, double cpuSeconds) {
        return new Measurement(cpuSeconds * 1e6, m.algbw(), m.busbw(), m.wrong(), m.wrongRanks());
    }
}
