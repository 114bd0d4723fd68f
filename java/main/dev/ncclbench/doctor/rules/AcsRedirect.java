package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.AcsBridge;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** ACS P2P Request/Completion Redirect on a PCI bridge: peer traffic goes up to the root complex, GPUDirect breaks. */
public final class AcsRedirect extends BaseRule<HostEvidence> {
    public AcsRedirect() {
        super("ACS-REDIRECT", Severity.ERROR,
                "ACS redirect (ReqRedir+/CmpltRedir+) is on for a PCI bridge: GPU peer-to-peer and GPUDirect RDMA are blocked", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (s.acs() == null || s.acs().isEmpty()) {
            return List.of();
        }
        List<String> ev = s.acs().stream().map(b -> "lspci -vvv: " + b.device() + " ACSCtl: " + b.flags()).toList();
        String first = s.acs().get(0).device();
        return List.of(finding(Severity.ERROR, s.acs().size() + " PCI bridge(s) have ACS redirect on (" + String.join(", ",
                        s.acs().stream().map(AcsBridge::device).toList()) + ")",
                "ACS P2P Request Redirect forces NIC-GPU and GPU-GPU transfers up through the root complex, blocking GPUDirect"
                        + " even though RDMA itself is healthy (IB HDR with ACS on: about half the bandwidth). Often re-enabled by a BIOS reset.",
                ev, List.of("setpci -s " + first + " ECAP_ACS+6.w=0000   # for a test; make it a boot-time service",
                        "disable ACS in the BIOS, or install the ACS-disable service"),
                References.RUNBOOK));
    }
}
