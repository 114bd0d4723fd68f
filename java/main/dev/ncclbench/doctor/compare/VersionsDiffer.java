package dev.ncclbench.doctor.compare;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** NCCL, driver, OFED, CUDA or kernel differ between nodes: the runbook's "upgraded on only some nodes". */
public final class VersionsDiffer extends BaseRule<HostSet> {
    private static final Map<String, Function<HostSnapshot, String>> WHAT = new LinkedHashMap<>();

    static {
        WHAT.put("NCCL", s -> s.probe() != null && s.probe().version() != null ? s.probe().version() : s.versions().nccl());
        WHAT.put("NVIDIA driver", s -> s.nvidia().driverVersion());
        WHAT.put("OFED / mlx5_core", s -> s.versions().ofed());
        WHAT.put("CUDA runtime", s -> s.versions().cudaRuntime());
        WHAT.put("kernel", HostSnapshot::kernel);
    }

    public VersionsDiffer() {
        super("NODES-VERSIONS-DIFFER", Severity.ERROR,
                "NCCL, NVIDIA driver, OFED, CUDA or kernel versions differ between the nodes of a job");
    }

    @Override
    public List<Finding> check(HostSet f) {
        List<Finding> out = new ArrayList<>();
        WHAT.forEach((what, get) -> {
            List<String> ev = new ArrayList<>();
            long distinct = f.hosts().stream().map(get).filter(Objects::nonNull).distinct().count();
            for (int i = 0; i < f.hosts().size(); i++) {
                ev.add(f.name(i) + ": " + Objects.toString(get.apply(f.hosts().get(i)), "unknown"));
            }
            if (distinct > 1) {
                Severity sev = what.equals("kernel") ? Severity.WARNING : Severity.ERROR;
                out.add(finding(sev, what + " differs between nodes (" + String.join("; ", ev) + ")",
                        "A stale NCCL, driver or OFED on one rank can silently disable GDR for the pair, or fail init, even when"
                                + " the rest of the fleet is fine.", ev,
                        List.of("upgrade the odd node(s) to the fleet's version, then re-run doctor --compare"), References.RUNBOOK));
            }
        });
        return out;
    }
}
