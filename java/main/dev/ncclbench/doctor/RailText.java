package dev.ncclbench.doctor;

import dev.ncclbench.doctor.predict.LinkRates;
import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The rail table as text: one line per rail port, a rail's other lines indented under it, then the other ports. */
public final class RailText {
    private static final String[] HEAD = {"rail", "GPU (bus, NUMA)", "NIC port", "dist", "state", "rate/width",
        "link layer", "netdev (speed)", "", "verdict"};

    private RailText() {
    }

    public static List<String> lines(RailTable t) {
        List<String> out = new ArrayList<>();
        boolean ib = NicPort.IB.equals(t.transport());
        out.add("rails (transport " + t.transport() + (t.settings().isEmpty() ? "" : "; " + String.join(", ", t.settings()))
                + "):");
        List<String[]> rows = new ArrayList<>();
        String[] head = HEAD.clone();
        head[8] = ib ? "in NCCL_IB_HCA" : "in SOCKET_IFNAME";
        rows.add(head);
        List<String> after = new ArrayList<>();
        for (Rail r : t.rails()) {
            String gpu = r.gpu().busId() + " numa " + (r.gpu().numaNode() == null ? "?" : r.gpu().numaNode());
            List<NicPort> ports = new ArrayList<>(r.ports());
            ports.addAll(r.excluded());
            if (ports.isEmpty()) {
                rows.add(new String[] {String.valueOf(r.rail()), gpu, "none", "", "", "", "", "", "", r.verdict().word});
            }
            for (int i = 0; i < ports.size(); i++) {
                NicPort p = ports.get(i);
                boolean first = i == 0;
                rows.add(new String[] {first ? String.valueOf(r.rail()) : "", first ? gpu : "", p.name(),
                    first && r.distance() != null ? String.valueOf(r.distance()) : "", p.stateText(), p.rate().text(), p.linkLayerText(),
                    netdev(p), p.included() ? "yes" : "no", first ? r.verdict().word : ""});
            }
            if (r.nic() != null && !r.ncclUses().equals(List.of(r.nic()))) {
                after.add("  rail " + r.rail() + ": NCCL uses " + (r.ncclUses().isEmpty() ? "no NIC for it"
                        : String.join(", ", r.ncclUses()) + " (" + (r.ncclDistance() == null ? "distance unknown"
                        : r.ncclDistance()) + ")" + (r.sharedWith().isEmpty() ? ""
                        : ", shared with rail" + (r.sharedWith().size() > 1 ? "s " : " ")
                        + String.join(", ", r.sharedWith().stream().map(String::valueOf).toList()))));
            }
        }
        if (!t.rails().isEmpty()) {
            out.addAll(table(rows));
        }
        out.addAll(after);
        if (!t.otherPorts().isEmpty()) {
            out.add("  other ports (no GPU's rail): " + String.join("; ", t.otherPorts().stream()
                    .map(p -> p.name() + " " + p.stateText() + ", " + p.rate().text() + ", " + p.linkLayerText()).toList()));
        }
        t.notes().forEach(n -> out.add("  " + n));
        return out;
    }

    private static String netdev(NicPort p) {
        if (p.netdev() == null) {
            return "-";
        }
        if (p.netdevSpeedMbps() == null) {
            return p.netdev();
        }
        return p.netdev() + " (" + LinkRates.Rate.text(p.netdevSpeedMbps() / 1000.0) + ")";
    }

    /** Columns padded to their widest cell, two spaces apart. */
    private static List<String> table(List<String[]> rows) {
        int[] w = new int[rows.get(0).length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        List<String> out = new ArrayList<>();
        for (String[] r : rows) {
            StringBuilder sb = new StringBuilder(" ");
            for (int i = 0; i < r.length; i++) {
                sb.append(' ').append(i == r.length - 1 ? r[i] : String.format(Locale.ROOT, "%-" + w[i] + "s ", r[i]));
            }
            out.add(sb.toString().stripTrailing());
        }
        return out;
    }
}
