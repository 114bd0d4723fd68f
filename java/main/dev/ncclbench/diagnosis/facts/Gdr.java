package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.GdrStatus;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.Networks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * GPUDirect RDMA from the lines other than connections: NET/IB's per-HCA "GPU Direct RDMA Enabled/Disabled for HCA"
 * (per GPU before 2.12), "Connected all rings, use ring PXN 0 GDR 0|1" (2.24+) and NCCL_NET_GDR_LEVEL=LOC (or 0).
 */
public final class Gdr {
    private Gdr() {
    }

    /**
     * What the lines say: how many say on, how many off, and the lines.
     *
     * @param on       lines that say GDR is used (or allowed)
     * @param off      lines that say it is not
     * @param evidence the lines
     */
    public record Signal(int on, int off, List<String> evidence) {
        public boolean any() {
            return on + off > 0;
        }

        /** The RDMA path these lines decide, or rdma itself when they say nothing. */
        public RouteKind path(RouteKind rdma) {
            if (!any()) {
                return rdma;
            }
            return off == 0 ? RouteKind.RDMA_GDR : on == 0 ? RouteKind.RDMA_HOST_STAGED : RouteKind.RDMA_PARTIAL_GDR;
        }

        String basis() {
            return !any() ? "" : "; GPUDirect RDMA from " + (on + off) + " GDR line(s): " + on + " on, " + off + " off";
        }
    }

    /**
     * IB/RoCE connection lines with /GDRDMA and others without, over the listed connections and every host's counts
     * (past the list's caps): GPUDirect on one side or some nodes only, whichever pairs the excerpt shows.
     */
    static boolean mixed(NcclLogEvidence e, List<NcclLogEvidence.Connection> ib) {
        if (ib.stream().anyMatch(NcclLogEvidence.Connection::gdr) && ib.stream().anyMatch(c -> !c.gdr())) {
            return true;
        }
        long gdr = 0;
        long plain = 0;
        for (NcclLogEvidence.HostFacts h : e.hostFacts()) {
            for (NcclLogEvidence.HostNet n : h.networks()) {
                if (Networks.isIb(n.network())) {
                    gdr += n.gdrLines();
                    plain += n.otherLines();
                }
            }
        }
        return gdr > 0 && plain > 0;
    }

    /**
     * The rings' own "use ring PXN x GDR 0|1" lines say what the rings use; when the log has them they decide over the
     * per-HCA lines, which say what each HCA allows (an HCA "Enabled" for a GPU the rings reach without GDR is no
     * partial GPUDirect).
     */
    public static Signal signal(Facts f) {
        Signal all = lines(f, true);
        Signal rings = lines(f, false);
        return rings.any() ? rings : all;
    }

    private static Signal lines(Facts f, boolean perHca) {
        NcclLogEvidence e = f.evidence();
        int on = 0;
        int off = 0;
        List<String> ev = new ArrayList<>();
        for (GdrStatus g : perHca ? e.gdr() : List.<GdrStatus>of()) {
            if (Networks.isSocket(g.network())) {
                continue; // "NET/Socket : GPU Direct RDMA Disabled for HCA 0 'eth0'": sockets never do GDR
            }
            if (g.enabled()) {
                on++;
            } else {
                off++;
            }
            if (ev.size() < 4) {
                ev.add(g.source() + ": " + g.text());
            }
        }
        for (Mention m : e.rings()) {
            int i = m.value().indexOf("GDR ");
            if (i >= 0 && i + 4 < m.value().length()) {
                char c = m.value().charAt(i + 4);
                if (c == '0') {
                    off++;
                } else if (c == '1') {
                    on++;
                } else {
                    continue;
                }
                if (ev.size() < 6) {
                    ev.add(m.source() + ": " + m.value());
                }
            }
        }
        var level = f.env("NCCL_NET_GDR_LEVEL");
        if (level.isPresent()) {
            String v = level.get().value().toUpperCase(Locale.ROOT);
            if (v.equals("LOC") || v.equals("0")) {
                off++;
                ev.add(level.get().source() + ": NCCL_NET_GDR_LEVEL=" + level.get().value() + " (GDR never used)");
            }
        }
        return new Signal(on, off, List.copyOf(ev));
    }
}
