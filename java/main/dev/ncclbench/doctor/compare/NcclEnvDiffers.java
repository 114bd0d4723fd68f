package dev.ncclbench.doctor.compare;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** An NCCL_ variable set on some nodes only, or to different values: the nodes do not run the same NCCL. */
public final class NcclEnvDiffers extends BaseRule<HostSet> {
    public NcclEnvDiffers() {
        super("NODES-NCCL-ENV-DIFFERS", Severity.WARNING,
                "an NCCL_ variable (environment or nccl.conf) is set on some nodes only, or differs between them");
    }

    @Override
    public List<Finding> check(HostSet f) {
        Set<String> vars = new TreeSet<>();
        f.hosts().forEach(h -> vars.addAll(h.ncclSettings().keySet()));
        List<Finding> out = new ArrayList<>();
        for (String v : vars) {
            List<String> values = new ArrayList<>();
            List<String> ev = new ArrayList<>();
            for (int i = 0; i < f.hosts().size(); i++) {
                HostSnapshot.Setting s = f.hosts().get(i).ncclSettings().get(v);
                values.add(s == null ? null : s.value());
                ev.add(f.name(i) + ": " + (s == null ? "unset" : s.evidence()));
            }
            if (values.stream().map(x -> Objects.toString(x, "\u0000unset")).distinct().count() > 1) {
                out.add(finding(Severity.WARNING, v + (values.contains(null) ? " is set on some nodes only" : " differs between nodes"),
                        "NCCL reads its settings per process: nodes with different values choose different transports or"
                                + " interfaces, and a mismatch can hang or slow the job.", ev,
                        List.of("set " + v + " the same way in the job's launch template on every node"), References.ENV_DOC));
            }
        }
        return out;
    }
}
