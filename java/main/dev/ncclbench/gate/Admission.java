package dev.ncclbench.gate;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.BaselineRecorder;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.spec.SweepFlag;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What a run must be before the gate compares it: a finished run (or, with --allow-partial, the sizes an
 * interrupted one measured), against a baseline measured the same way. A baseline of another collective, type,
 * op, rank count, node count, placement or backend has different numbers by design: comparing with it would
 * call the difference a regression or an improvement, and comparing nothing would PASS. Versions and NCCL_
 * settings stay gateable: a driver or NCCL upgrade is exactly what a gate is for.
 */
final class Admission {
    /** What a job is beside its flags: a baseline of another size or shape of job is refused as well. */
    private static final List<String> TOPOLOGY = List.of("ranks", "nodes", "placement");
    /**
     * The --allow-changed names, in the order the usage line lists them: the sweep flags a baseline is keyed by
     * ({@link SweepFlag#refusedWhenChanged}), then the job's shape.
     */
    static final List<String> FIELDS = Stream.concat(SweepFlag.refusedNames().stream(), TOPOLOGY.stream()).toList();

    private Admission() {
    }

    /** A usage error for an unknown --allow-changed name, before anything is read. */
    static void checkAllowed(Collection<String> allowed) {
        for (String a : allowed) {
            if (!FIELDS.contains(a)) {
                throw NcclbenchException.usage("--allow-changed: no field '" + a + "' (one of: "
                        + String.join(", ", FIELDS) + "; versions and NCCL_ settings are gated without it)");
            }
        }
    }

    /**
     * Refuses a run that did not finish (unless allowPartial): an interrupted run's missing sizes would pass as
     * "not in run", its measured ones as the whole.
     */
    static void checkFinished(String runFile, ResultDocument run, boolean allowPartial) {
        if ("ok".equals(run.status()) || allowPartial) {
            return;
        }
        throw NcclbenchException.usage(runFile + " is " + describe(run.status()) + " (status '" + run.status() + "'"
                + (run.error() == null ? "" : ": " + run.error()) + "): the gate judges finished runs; "
                + "--allow-partial judges the sizes it measured");
    }

    /** "interrupted", "incomplete (recovered from its journal)", "failed". */
    static String describe(String status) {
        return ResultDocument.INCOMPLETE.equals(status) ? "incomplete (recovered from its journal)"
                : status == null ? "a run of unknown status" : "a run that ended " + status;
    }

    /**
     * Every difference that changes the numbers and is not allowed, as "ranks: 4 -> 2"; empty when the run may be
     * gated against this baseline.
     */
    static List<String> blockers(Fingerprint base, Set<String> baseCollectives, Fingerprint run,
                                 Set<String> runCollectives, Set<String> allowed) {
        List<String> out = new ArrayList<>();
        if (!baseCollectives.equals(runCollectives) && !allowed.contains("collective")) {
            out.add("collective: " + String.join(",", baseCollectives) + " -> " + String.join(",", runCollectives));
        }
        for (Fingerprint.Change c : base.changesTo(run)) {
            String field = fieldOf(c);
            if (field != null && !allowed.contains(field)) {
                out.add(c.text());
            }
        }
        return out;
    }

    /** The --allow-changed name of a change, or null when it is gateable as it is (versions, env, NIC rates). */
    static String fieldOf(Fingerprint.Change c) {
        return switch (c.kind()) {
            case "topology" -> switch (c.what()) {
                case "backend", "nodes", "ranks" -> c.what();
                default -> "placement"; // GPU model and count
            };
            case "interface" -> c.what().startsWith("interface ") ? "placement" : null; // a rate alone is gateable
            case "measurement" -> c.what();
            default -> null;
        };
    }

    static Set<String> collectives(Collection<SizeKey> keys) {
        TreeSet<String> s = new TreeSet<>();
        keys.forEach(k -> s.add(k.collective()));
        return s;
    }

    static Set<String> collectivesOf(Baseline b) {
        return collectives(b.entries().stream().map(Baseline.Entry::key).toList());
    }

    /** The one line of a refused comparison: every difference, and the baseline to record instead. */
    static NcclbenchException refused(String runFile, Fingerprint run, String baselineName, List<String> blockers) {
        return NcclbenchException.usage("cannot gate " + runFile + " against baseline " + baselineName
                + ": it was measured differently (" + String.join("; ", blockers) + "); record a baseline of this"
                + " configuration (ncclbench baseline record --name " + BaselineRecorder.defaultName(run) + " "
                + runFile + "), or when the change is the point: --allow-changed "
                + String.join(",", new TreeSet<>(blockers.stream().map(b -> b.substring(0, b.indexOf(':')))
                .map(Admission::flagName).toList())));
    }

    private static String flagName(String what) {
        return switch (what) {
            case "GPU model", "GPU count" -> "placement";
            default -> what.startsWith("interface ") ? "placement" : what;
        };
    }
}
