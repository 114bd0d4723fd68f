package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NcclProbeResult;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;
import java.util.Objects;

/** The real NCCL chose another bootstrap interface than doctor predicted: trust NCCL, and report the model's gap. */
public final class ProbeDisagrees extends BaseRule<HostEvidence> {
    public ProbeDisagrees() {
        super("PROBE-DISAGREES", Severity.WARNING,
                "the real libnccl.so.2 bootstraps on another interface than doctor predicted");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        NcclProbeResult probe = s.probe();
        if (probe == null || !probe.ran()) {
            return List.of();
        }
        Prediction p = InterfacePredictor.predict(s);
        if (Objects.equals(p.bootstrap().iface(), probe.bootstrapInterface())) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING, "NCCL " + probe.version() + " bootstraps on " + name(probe.bootstrapInterface())
                        + ", doctor predicted " + name(p.bootstrap().iface()),
                "The real library is right by definition; the findings that rest on the prediction may be off. Please report"
                        + " this with the snapshot (doctor --save host.json).",
                List.of("probe: " + probe.library() + " -> " + name(probe.bootstrapInterface()) + " " + Objects.toString(probe.bootstrapAddress(), ""),
                        "predicted: " + name(p.bootstrap().iface()) + " (" + p.bootstrap().why() + ")"),
                List.of("ncclbench doctor --save host.json   # attach it to the report"), References.ENV_DOC));
    }

    private static String name(String s) {
        return s == null ? "nothing" : s;
    }
}
