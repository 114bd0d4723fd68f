package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.LinkRates;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;
import java.util.Optional;

/** NCCL_SOCKET_IFNAME is set and matches only interfaces slower than another usable one. */
public final class SocketIfnameSlow extends BaseRule<HostEvidence> {
    public SocketIfnameSlow() {
        super("SOCKET-IFNAME-SLOW", Severity.WARNING,
                "NCCL_SOCKET_IFNAME selects only interfaces slower than another one this host has");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        Optional<HostSnapshot.Setting> set = s.setting("NCCL_SOCKET_IFNAME");
        Optional<HostFacts.Usable> fast = HostFacts.fastest(s);
        if (set.isEmpty() || set.get().value().length() <= 1 || fast.isEmpty()) {
            return List.of();
        }
        Prediction p = InterfacePredictor.predict(s);
        if (p.socketInterfaces().isEmpty()) {
            return List.of();
        }
        double best = 0;
        StringBuilder chosen = new StringBuilder();
        for (Prediction.Endpoint e : p.socketInterfaces()) {
            Optional<LinkRates.Rate> r = LinkRates.of(s, e.iface());
            if (r.isEmpty()) {
                return List.of(); // an interface of unknown rate might be the fast one
            }
            best = Math.max(best, r.get().gbps());
            chosen.append(chosen.length() == 0 ? "" : ", ").append(e.iface()).append(" (").append(r.get().text()).append(")");
        }
        if (best >= fast.get().gbps()) {
            return List.of();
        }
        Severity sev = HostFacts.rdmaUsable(s) ? Severity.WARNING : Severity.ERROR;
        return List.of(finding(sev, "NCCL_SOCKET_IFNAME=" + set.get().value() + " selects " + chosen + ", slower than "
                        + fast.get().describe(),
                sev == Severity.ERROR ? "No usable RDMA device here, so NCCL's data goes over NET/Socket on the interfaces"
                        + " selected: busbw is capped at their rate." : "Bootstrap and NCCL's out-of-band socket use the slower link;"
                        + " data goes over RDMA, so this costs little unless NCCL falls back to sockets.",
                List.of(set.get().evidence(), "selected: " + chosen, "faster: " + fast.get().describe()),
                List.of("export NCCL_SOCKET_IFNAME=" + fast.get().name()), References.ENV_DOC));
    }
}
