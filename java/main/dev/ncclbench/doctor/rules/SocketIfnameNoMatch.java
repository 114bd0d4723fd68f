package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.netif.InterfaceAdvice;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** NCCL_SOCKET_IFNAME matches nothing: every rank dies in bootstrap about three seconds after launch. */
public final class SocketIfnameNoMatch extends BaseRule<HostEvidence> {
    public SocketIfnameNoMatch() {
        super("SOCKET-IFNAME-NO-MATCH", Severity.ERROR,
                "NCCL_SOCKET_IFNAME matches no running interface: bootstrap fails ('no socket interface found')");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        Optional<HostSnapshot.Setting> set = s.setting("NCCL_SOCKET_IFNAME");
        if (set.isEmpty() || set.get().value().length() <= 1 || s.setting("NCCL_COMM_ID").isPresent()) {
            return List.of();
        }
        Prediction p = InterfacePredictor.predict(s);
        if (!p.bootstrapFails()) {
            return List.of();
        }
        String fix = SocketAdvice.bestValue(s);
        List<String> exist = InterfaceAdvice.usable(InterfacePredictor.candidates(s));
        List<String> evidence = new ArrayList<>();
        evidence.add(set.get().evidence());
        evidence.add("running interfaces with an address, in kernel order: " + (exist.isEmpty() ? "none" : String.join(", ", exist)));
        if (s.probe() != null && !s.probe().warnings().isEmpty()) {
            evidence.add("the real NCCL " + s.probe().version() + " said: " + s.probe().warnings().get(0));
        }
        List<String> remedy = new ArrayList<>();
        if (fix != null) {
            remedy.add("export NCCL_SOCKET_IFNAME=" + fix);
        }
        remedy.add("unset NCCL_SOCKET_IFNAME   # let NCCL choose; check its choice with ncclbench doctor");
        return List.of(finding(Severity.ERROR, "NCCL_SOCKET_IFNAME=" + set.get().value() + " matches none of the interfaces here ("
                        + (exist.isEmpty() ? "none" : String.join(", ", exist)) + ")" + (fix == null ? "" : "; NCCL_SOCKET_IFNAME=" + fix + " would work"),
                "NCCL searches only the listed name prefixes when NCCL_SOCKET_IFNAME is longer than one character, and never"
                        + " falls back: every rank stops in bootstrap with 'Bootstrap : no socket interface found' (ncclInvalidUsage)"
                        + " before any GPU work, the three-second death of the bootstrap lesson.",
                evidence, remedy, References.ENV_DOC));
    }
}
