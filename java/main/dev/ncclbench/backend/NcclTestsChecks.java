package dev.ncclbench.backend;

import dev.ncclbench.spec.Capability;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.spec.RunSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * nccl-tests' flags against the backend that runs them: a GPU-only flag is refused by name on a backend without a
 * GPU (exit 2, one line), and -d all / -o all / -o mulsum become the list of pairs the backend cannot run, which
 * the sweep skips and the header names.
 */
public final class NcclTestsChecks {
    private NcclTestsChecks() {
    }

    /** "nccl-tests flag -R 1 (local_register) needs a GPU: ..." for the first GPU-only flag this backend cannot honour. */
    public static void refuse(Backend backend, RunSpec asked) {
        for (String flag : asked.ncclTests().flags().gpuOnly()) {
            int colon = flag.indexOf(": ");
            String name = flag.substring(0, colon);
            String what = flag.substring(colon + 2);
            if (backend.honours(name.substring(0, 2))) {
                continue;
            }
            if (!backend.capabilities().contains(Capability.DEVICE_MEMORY)) {
                throw NcclbenchException.usage("nccl-tests flag " + name + " needs a GPU: " + what + ", which the "
                        + backend.name() + " backend does not have (--backend nccl on a GPU node)");
            }
            throw NcclbenchException.usage("nccl-tests flag " + name + " is not implemented on the " + backend.name()
                    + " backend yet: " + what);
        }
    }

    /**
     * The "type" (not moved at all) and "type op" (not reduced) entries of -d and -o's lists that this backend
     * cannot run; empty when neither flag asked for a list.
     */
    public static List<String> skipped(Backend backend, RunSpec spec) {
        List<String> out = new ArrayList<>();
        if (spec.ncclTests().types().isEmpty() && spec.ncclTests().ops().isEmpty()) {
            return out;
        }
        boolean reduces = false;
        for (String name : spec.collectives()) {
            Collective c = spec.collective(name);
            reduces |= c.reduces();
        }
        for (DataType t : spec.types()) {
            try {
                backend.refuse(spec.withData(spec.data().with(t, spec.data().op())));
            } catch (RuntimeException refused) {
                out.add(t.label());
                continue;
            }
            for (String opName : reduces ? spec.ops() : List.<String>of()) {
                ReduceOp op = ReduceOp.parse(opName);
                if (op == null || !backend.supports(t, op)) {
                    out.add(t.label() + " " + opName);
                }
            }
        }
        return out;
    }

    /** One header line naming what the backend skips: "-d all, -o all: the socket backend skips half (sum, ...)". */
    public static String skipNote(Backend backend, RunSpec spec, List<String> skipped) {
        if (skipped.isEmpty()) {
            return null;
        }
        String asked = (spec.ncclTests().types().isEmpty() ? "" : "-d all")
                + (spec.ncclTests().ops().isEmpty() ? "" : (spec.ncclTests().types().isEmpty() ? "" : ", ")
                + "-o " + (spec.ncclTests().ops().size() == 1 ? spec.ncclTests().ops().get(0) : "all"));
        return asked + ": the " + backend.name() + " backend skips " + String.join("; ", compact(skipped))
                + " (no backend here runs mulsum, nccl-tests' PreMulSum)";
    }

    /** "half sum", "half prod", "int8 sum"... as "half, int8 (sum, prod)": types grouped by the ops they skip. */
    private static List<String> compact(List<String> skipped) {
        java.util.LinkedHashMap<String, List<String>> byType = new java.util.LinkedHashMap<>();
        for (String s : skipped) {
            String[] p = s.split(" ", 2);
            List<String> ops = byType.computeIfAbsent(p[0], k -> new ArrayList<>());
            if (p.length > 1) {
                ops.add(p[1]);
            }
        }
        java.util.LinkedHashMap<List<String>, List<String>> byOps = new java.util.LinkedHashMap<>();
        byType.forEach((t, ops) -> byOps.computeIfAbsent(ops, k -> new ArrayList<>()).add(t));
        List<String> out = new ArrayList<>();
        byOps.forEach((ops, types) -> out.add(String.join(", ", types) + " ("
                + (ops.isEmpty() ? "every collective" : String.join(", ", ops)) + ")"));
        return out;
    }
}
