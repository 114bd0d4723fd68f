package dev.ncclbench.sweep;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.spec.RunSpec;

import java.util.ArrayList;
import java.util.List;

/** What a sweep runs: nccl-tests' loops around TimeTest (-d all, -o all), the sizes of each, its -C time column. */
final class Passes {
    private Passes() {
    }

    /** How many rows the sweep will print, for the progress bar. */
    static long rowCount(RunSpec spec, int nranks) {
        long rows = 0;
        for (String name : spec.collectives()) {
            Collective c = spec.collective(name);
            if (c.skipOn(nranks) != null) {
                continue; // no rows, as SweepEngine#run
            }
            for (RunSpec pass : Passes.of(spec, c)) {
                rows += (long) sizesOf(pass, c, nranks).size() * (c.rooted() && spec.data().root() == -1 ? nranks : 1);
            }
        }
        return rows * spec.iterations().repeat();
    }

    /**
     * The requested sizes that make rows of their own: a size is rounded down to whole elements (and, for the
     * collectives that split a buffer over ranks, to whole per-rank blocks), so several requested sizes can make the
     * same row; each is measured once. A size that rounds to nothing is skipped unless 0 was asked for.
     */
    static List<Long> sizesOf(RunSpec spec, Collective coll, int nranks) {
        List<Long> out = new ArrayList<>();
        int elt = spec.data().type().bytes();
        long last = -1;
        for (long size : spec.sizes()) {
            long effective = coll.counts(size / elt, elt, nranks).sizeBytes(spec.data().type());
            if (effective == last || (effective == 0 && size > 0)) {
                continue;
            }
            last = effective;
            out.add(size);
        }
        return out;
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
            for (String opName : coll.reduces() ? spec.ops() : List.of(spec.data().op().label())) {
                ReduceOp op = ReduceOp.parse(opName);
                if (coll.reduces() && (op == null || skipped.contains(t.label() + " " + opName))) {
                    continue;
                }
                out.add(spec.types().size() == 1 && spec.ops().size() == 1 ? spec
                        : spec.withData(spec.data().with(t, op == null ? spec.data().op() : op)));
            }
        }
        return out;
    }

    /** -C 1: this process's cputime in the time column (nccl-tests does not combine it by -a), bandwidths kept. */
    static Measurement cputime(Measurement m, double cpuSeconds) {
        return new Measurement(cpuSeconds * 1e6, m.algbw(), m.busbw(), m.wrong(), m.wrongRanks());
    }
}
