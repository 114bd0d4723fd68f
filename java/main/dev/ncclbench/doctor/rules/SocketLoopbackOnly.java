package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.Severity;

import java.util.List;
import java.util.Optional;

/**
 * NCCL ends up on loopback only: `^=eth0` or `^ib` on a host whose one real NIC that was, or no other interface.
 * Ranks on other nodes cannot reach 127.0.0.1, so a multi-node job hangs or fails in bootstrap.
 */
public final class SocketLoopbackOnly implements Rule<HostSnapshot> {
    @Override
    public String id() {
        return "SOCKET-LOOPBACK-ONLY";
    }

    @Override
    public Severity severity() {
        return Severity.ERROR;
    }

    @Override
    public String summary() {
        return "NCCL's socket interfaces are loopback only (e.g. NCCL_SOCKET_IFNAME=^=eth0): no other node can reach this one";
    }

    @Override
    public List<Finding> check(HostSnapshot s) {
        Prediction p = InterfacePredictor.predict(s);
        if (p.socketInterfaces().isEmpty() || !p.socketInterfaces().stream().allMatch(e -> isLoopback(s, e.iface()))) {
            return List.of();
        }
        Optional<HostSnapshot.Setting> set = s.setting("NCCL_SOCKET_IFNAME");
        String names = String.join(", ", p.socketInterfaces().stream().map(Prediction.Endpoint::iface).toList());
        List<HostFacts.Usable> others = HostFacts.usable(s);
        if (set.isEmpty() || set.get().value().length() <= 1) {
            return List.of(finding(Severity.WARNING, "NCCL will use loopback (" + names + "): this host has no other running interface with an address",
                    "Fine for a single-node job; ranks on other nodes could not reach it.",
                    List.of("running interfaces: " + names), List.of("ip addr   # bring up the interface other nodes reach"), References.ENV_DOC));
        }
        String fix = SocketAdvice.bestValue(s);
        return List.of(finding(Severity.ERROR, "NCCL_SOCKET_IFNAME=" + set.get().value() + " leaves NCCL on loopback only (" + names + ")",
                "The value excludes every real interface (" + (others.isEmpty() ? "there is none" : others.stream().map(HostFacts.Usable::name).toList())
                        + "), so NCCL's bootstrap and NET/Socket bind " + names + ": a multi-node job cannot connect"
                        + " (real NCCL 2.30 does exactly this for ^=eth0 on a host with eth0 and lo).",
                List.of(set.get().evidence(), "predicted: " + p.bootstrap().why()),
                fix == null || isLoopback(s, fix) ? List.of("unset NCCL_SOCKET_IFNAME") : List.of("export NCCL_SOCKET_IFNAME=" + fix),
                References.ENV_DOC));
    }

    static boolean isLoopback(HostSnapshot s, String name) {
        return s.link(name).map(l -> l.loopback()).orElse(name.startsWith("lo"));
    }
}
