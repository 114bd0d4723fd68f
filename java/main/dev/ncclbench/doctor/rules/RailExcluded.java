package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.predict.RailVerdict;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.netif.NcclNameList;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * NCCL_IB_HCA (or, on a sockets-only node, NCCL_SOCKET_IFNAME or its default) leaves out every port of a GPU's rail:
 * NCCL never uses that NIC and the GPU shares a farther one. When the setting leaves out everything, IB-HCA-NO-MATCH or
 * SOCKET-IFNAME-NO-MATCH says so for the whole host instead.
 */
public final class RailExcluded extends RailRule {
    public RailExcluded() {
        super("RAIL-EXCLUDED", Severity.WARNING, "NCCL_IB_HCA (or NCCL_SOCKET_IFNAME) leaves out a GPU's nearest NIC:"
                + " NCCL never uses it and the GPU shares a farther one", RailVerdict.EXCLUDED);
    }

    @Override
    boolean reports(RailTable table, Rail rail, Rail.Problem problem) {
        return table.rails().stream().anyMatch(r -> !r.ports().isEmpty())
                || table.otherPorts().stream().anyMatch(NicPort::included);
    }

    @Override
    String detail(Rail rail, Rail.Problem problem, NicPort port) {
        return "NCCL_IB_HCA is a prefix list by default (mlx5_1 also keeps mlx5_10 to mlx5_19), '^' excludes, '=' makes"
                + " names exact and ':1' picks a port. A rail whose NIC it leaves out runs through a neighbour's NIC, which"
                + " then carries two GPUs' traffic; on purpose (a broken NIC kept out) it is a stopgap, by accident a"
                + " quiet loss of bandwidth.";
    }

    @Override
    List<String> remedy(HostSnapshot s, Rail rail, Rail.Problem problem, NicPort ignored) {
        NicPort port = rail.excluded().get(0);
        String name = port.filter();
        String current = s.setting(name).map(HostSnapshot.Setting::value).orElse(null);
        boolean ib = NicPort.IB.equals(port.transport());
        List<String> wanted = rail.excluded().stream().map(p -> ib ? p.device() + ":" + p.port() : p.device()).toList();
        String value;
        if (current == null || current.length() < 2 && !ib) {
            // NCCL's default choice (ib* first) left it out: name what it chose, and these
            Set<String> names = new LinkedHashSet<>();
            InterfacePredictor.predict(s).socketInterfaces().forEach(e -> names.add(e.iface()));
            names.addAll(wanted);
            value = "=" + String.join(",", names);
        } else {
            value = including(current, wanted);
        }
        return List.of(value == null ? "unset " + name + "   # let NCCL use every port" : "export " + name + "=" + value,
                ib ? "ibv_devinfo -l   # the device names NCCL matches against"
                        : "ip -br link   # the interface names NCCL matches against");
    }

    /**
     * The value of an NCCL name list that keeps these "device[:port]" too: an excluding list loses the entries that
     * match them, a keeping list gains them. Null when nothing would be left (unset it).
     */
    static String including(String current, List<String> wanted) {
        NcclNameList list = NcclNameList.parse(current);
        List<String> entries = new ArrayList<>();
        if (list.exclude()) {
            for (NcclNameList.Entry e : list.entries()) {
                NcclNameList one = new NcclNameList(null, false, list.exact(), List.of(e));
                if (wanted.stream().noneMatch(w -> one.matches(device(w), port(w)))) {
                    entries.add(entry(e));
                }
            }
            return entries.isEmpty() ? null : "^" + (list.exact() ? "=" : "") + String.join(",", entries);
        }
        list.entries().forEach(e -> entries.add(entry(e)));
        for (String w : wanted) {
            if (!list.keeps(device(w), port(w))) {
                entries.add(w);
            }
        }
        return (list.exact() ? "=" : "") + String.join(",", entries);
    }

    private static String device(String w) {
        return w.contains(":") ? w.substring(0, w.indexOf(':')) : w;
    }

    private static int port(String w) {
        return w.contains(":") ? Integer.parseInt(w.substring(w.indexOf(':') + 1)) : NcclNameList.ANY_PORT;
    }

    private static String entry(NcclNameList.Entry e) {
        return e.name() + (e.port() == NcclNameList.ANY_PORT ? "" : ":" + e.port());
    }
}
