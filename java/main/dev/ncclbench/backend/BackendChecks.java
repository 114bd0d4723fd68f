package dev.ncclbench.backend;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;

import java.util.ArrayList;
import java.util.List;

/** What a resolved spec asks of the chosen backend, checked before anything runs: exit 2 with one sentence. */
public final class BackendChecks {
    private BackendChecks() {
    }

    /** @param world the job's ranks */
    public static void validate(Backend backend, RunSpec spec, int world) {
        if (spec.root() >= world) {
            throw NcclbenchException.usage("-r " + spec.root() + " is not a rank of this " + world + "-rank job");
        }
        boolean reduces = false;
        for (String name : spec.collectives()) {
            Collective c = Collectives.byName(name);
            reduces |= c.reduces();
        }
        if (reduces && !backend.supports(spec.type(), spec.op())) {
            List<String> can = new ArrayList<>();
            for (DataType t : DataType.values()) {
                if (backend.supports(t, spec.op())) {
                    can.add(t.label());
                }
            }
            throw NcclbenchException.usage("the " + backend.name() + " backend reduces " + String.join(", ", can)
                    + " with " + spec.op().label() + ", not " + spec.type().label() + "; use -d float"
                    + otherBackends(backend));
        }
        if (spec.maxBytes() > backend.maxBytes()) {
            throw NcclbenchException.usage("the " + backend.name() + " backend sweeps up to " + Sizes.human(backend.maxBytes())
                    + " per buffer; -e " + spec.maxBytes() + " is above that" + otherBackends(backend));
        }
    }

    private static String otherBackends(Backend backend) {
        List<String> others = new ArrayList<>();
        Backends.all().stream().filter(b -> !b.name().equals(backend.name())).forEach(b -> others.add("--backend " + b.name()));
        return others.isEmpty() ? "" : ", or " + String.join(" or ", others);
    }
}
