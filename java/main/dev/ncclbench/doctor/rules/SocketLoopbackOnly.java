package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;
import java.util.Optional;

/**
 * NCCL ends up on loopback only: `^=eth0` or `^ib` on a host whose one real NIC that was, or no other interface.
 * Ranks on other nodes cannot reach 127.0.0.1, so a multi-node job hangs or fails in bootstrap.
 */
public final class SocketLoopbackOnly extends BaseRule<HostEvidence> {
    public SocketLoopbackOnly() {
        super("SOCKET-LOOPBACK-ONLY", Severity.ERROR,
                "NCCL bootstraps on loopback (e.g. NCCL_SOCKET_IFNAME=^=eth0 or ^ib: lo is first in kernel order): no other node can reach it");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        Prediction p = InterfacePredictor.predict(s);
        // a ^ list keeps lo, and lo comes first in kernel order: bootstrap binds 127.0.0.1 even with other matches
        if (p.bootstrapFails() || !isLoopback(s, p.bootstrap().iface())) {
            return List.of();
        }
        Optional<HostSnapshot.Setting> set = s.setting("NCCL_SOCKET_IFNAME");
        String names = String.join(", ", p.socketInterfaces().stream().map(Prediction.Endpoint::iface).toList());
        String boot = p.bootstrap().iface() + " " + p.bootstrap().address();
        List<HostFacts.Usable> others = HostFacts.usable(s);
        if (set.isEmpty() || set.get().value().length() <= 1) {
            return List.of(finding(Severity.WARNING, "NCCL will bootstrap on loopback (" + boot + "): this host has no other running interface with an address",
                    "Fine for a single-node job; ranks on other nodes could not reach it.",
                    List.of("running interfaces: " + names), List.of("ip addr   # bring up the interface other nodes reach"), References.ENV_DOC));
        }
        String fix = SocketAdvice.bestValue(s);
        return List.of(finding(Severity.ERROR, "NCCL_SOCKET_IFNAME=" + set.get().value() + " makes NCCL bootstrap on loopback (" + boot + ")",
                "A ^ list keeps lo, and lo is first in kernel order, so bootstrap binds " + boot + " and advertises it to the"
                        + " other ranks, which cannot reach it: a multi-node job hangs or fails in bootstrap (real NCCL 2.30 does"
                        + " exactly this for ^=eth0 or ^ib). NET/Socket would use: " + names + ". Other interfaces here: "
                        + (others.isEmpty() ? "none" : others.stream().map(HostFacts.Usable::name).toList()) + ".",
                List.of(set.get().evidence(), "predicted: " + p.bootstrap().why()),
                fix == null || isLoopback(s, fix) ? List.of("unset NCCL_SOCKET_IFNAME") : List.of("export NCCL_SOCKET_IFNAME=" + fix),
                References.ENV_DOC));
    }

    static boolean isLoopback(HostSnapshot s, String name) {
        return s.link(name).map(l -> l.loopback()).orElse(name.startsWith("lo"));
    }
}
