package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.IbDevice;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.netif.NcclNameList;

import java.util.ArrayList;
import java.util.List;

/**
 * NCCL_IB_HCA filters out every device: NCCL's syntax ({@link NcclNameList}) is `hca[:port],...`, prefix match by default
 * (mlx5_1 also matches mlx5_10), a leading `^` excludes, then `=` means exact names.
 */
public final class IbHcaNoMatch extends BaseRule<HostEvidence> {
    public IbHcaNoMatch() {
        super("IB-HCA-NO-MATCH", Severity.ERROR,
                "NCCL_IB_HCA matches none of the RDMA devices here (prefix match; ^ excludes; = exact)", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (!filtersEverything(s)) {
            return List.of();
        }
        HostSnapshot.Setting v = s.setting("NCCL_IB_HCA").orElseThrow();
        List<String> ports = ports(s);
        return List.of(finding(Severity.ERROR, "NCCL_IB_HCA=" + v.value() + " matches none of " + ports + ": NCCL will use sockets",
                "NCCL keeps only the devices the filter selects; with none left there is no IB transport (NET/IB : No device found).",
                List.of(v.evidence(), "RDMA ports here: " + ports),
                List.of("export NCCL_IB_HCA=" + (s.ibDevices().isEmpty() ? "<device>" : "=" + s.ibDevices().get(0).name()),
                        "unset NCCL_IB_HCA   # let NCCL use every device", "ibv_devices   # the names the verbs layer sees"),
                References.RUNBOOK));
    }

    /** Whether NCCL_IB_HCA is set and keeps none of the devices' ports. */
    static boolean filtersEverything(HostSnapshot s) {
        var v = s.setting("NCCL_IB_HCA");
        if (v.isEmpty() || s.ibDevices().isEmpty()) {
            return false;
        }
        NcclNameList list = NcclNameList.parse(v.get().value());
        for (IbDevice d : s.ibDevices()) {
            for (IbDevice.Port p : d.ports()) {
                if (list.keeps(d.name(), p.port())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<String> ports(HostSnapshot s) {
        List<String> out = new ArrayList<>();
        for (IbDevice d : s.ibDevices()) {
            for (IbDevice.Port p : d.ports()) {
                out.add(d.name() + ":" + p.port());
            }
        }
        return out;
    }
}
