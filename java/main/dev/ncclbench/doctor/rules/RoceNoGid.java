package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.IbDevice;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * A RoCE port without a usable GID: no GID at all (a container that sees another GID table than the host), no
 * RoCE v2 entry, or NCCL_IB_GID_INDEX naming an empty slot.
 */
public final class RoceNoGid extends BaseRule<HostEvidence> {
    public RoceNoGid() {
        super("ROCE-NO-GID", Severity.ERROR,
                "a RoCE port has no usable GID index (empty table, no RoCE v2 entry, or NCCL_IB_GID_INDEX on an empty slot)");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        List<Finding> out = new ArrayList<>();
        var forced = s.setting("NCCL_IB_GID_INDEX");
        for (IbDevice d : s.ibDevices()) {
            for (IbDevice.Port p : d.ports()) {
                if (!p.roce() || !"ACTIVE".equalsIgnoreCase(p.state())) {
                    continue;
                }
                String where = "/sys/class/infiniband/" + d.name() + "/ports/" + p.port() + "/gids";
                List<String> table = p.gids().stream().map(g -> g.index() + "=" + g.gid() + " " + g.type()).toList();
                if (forced.isPresent()) {
                    int idx = parse(forced.get().value());
                    if (p.gids().stream().noneMatch(g -> g.index() == idx)) {
                        out.add(finding(Severity.ERROR, forced.get().name() + "=" + forced.get().value() + " is an empty GID slot on "
                                        + d.name() + ":" + p.port(),
                                "NCCL uses exactly that index; an empty one fails the RoCE connection (or silently picks a wrong path).",
                                List.of(forced.get().evidence(), where + ": " + table),
                                List.of("show_gids " + d.name() + "   # pick the RoCE v2 entry with the IPv4 address", "unset NCCL_IB_GID_INDEX"),
                                References.RUNBOOK));
                    }
                    continue;
                }
                if (p.gids().isEmpty()) {
                    out.add(finding(Severity.ERROR, d.name() + ":" + p.port() + " is RoCE with an empty GID table",
                            "Without a GID NCCL cannot address the port; in a container this is the GID mismatch between container"
                                    + " and host that blocks GPUDirect registration.",
                            List.of(where + ": every entry empty"),
                            List.of("show_gids   # on the host and in the container; compare", "assign the IP address to the RoCE netdev"),
                            References.RUNBOOK));
                } else if (p.gids().stream().noneMatch(g -> g.type() != null && g.type().contains("v2"))) {
                    out.add(finding(Severity.WARNING, d.name() + ":" + p.port() + " has no RoCE v2 GID (only " + table + ")",
                            "NCCL prefers RoCE v2 (routable); with only v1 or link-local entries, cross-subnet traffic fails.",
                            List.of(where + ": " + table), List.of("show_gids " + d.name()), References.RUNBOOK));
                }
            }
        }
        return out;
    }

    private static int parse(String v) {
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
