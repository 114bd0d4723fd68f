package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.HostFacts;
import dev.ncclbench.nccllog.NcclLogEvidence.HostNet;
import dev.ncclbench.nccllog.Networks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The inter-node path of each host, from its NET connection lines (every host, not the capped connection list): a
 * host with any NET/Socket line is on sockets unless it said it uses another network (then the socket lines are its
 * peer's fallback), an IB host is GPUDirect when all its lines say /GDRDMA. It decides
 * the job's path when the connection list was capped, and names the hosts a finding is about.
 *
 * @param byHost   hosts with NET lines and their worst path, in first-seen order ("" for lines without a host)
 * @param lines    NET connection lines over all hosts
 * @param worst    the worst path over all hosts; UNKNOWN when no host printed a NET line
 */
public record HostRoutes(Map<String, RouteKind> byHost, long lines, RouteKind worst) {

    static HostRoutes of(NcclLogEvidence e) {
        long lines = 0;
        RouteKind worst = RouteKind.UNKNOWN;
        for (HostFacts h : e.hostFacts()) {
            for (HostNet n : h.networks()) {
                lines += n.lines();
                RouteKind nk = kind(n);
                if (nk.worseThan(worst)) {
                    worst = nk;
                }
            }
        }
        Map<String, RouteKind> by = byHost(e, true);
        if (worst == RouteKind.SOCKET && !by.containsValue(RouteKind.SOCKET)) {
            // sockets in the lines but no host said it chose them: name every host whose lines show them
            by = byHost(e, false);
        }
        return new HostRoutes(Map.copyOf(by), lines, worst);
    }

    /**
     * Each host's worst path. With ownChoice, a host that said it uses a network other than sockets ("Using network
     * IB") is not put on sockets by its NET/Socket lines: those are its connections to a peer that fell back, and
     * naming it would drain the healthy neighbours of every socket node along with it.
     */
    private static Map<String, RouteKind> byHost(NcclLogEvidence e, boolean ownChoice) {
        Map<String, RouteKind> by = new LinkedHashMap<>();
        for (HostFacts h : e.hostFacts()) {
            boolean choseOther = ownChoice && !h.chosen().isEmpty()
                    && h.chosen().stream().noneMatch(Networks::isSocket);
            RouteKind k = RouteKind.UNKNOWN;
            for (HostNet n : h.networks()) {
                RouteKind nk = kind(n);
                if (!(choseOther && nk == RouteKind.SOCKET) && nk.worseThan(k)) {
                    k = nk;
                }
            }
            if (k != RouteKind.UNKNOWN) {
                by.put(h.host(), k);
            }
        }
        return by;
    }

    private static RouteKind kind(HostNet n) {
        if (Networks.isSocket(n.network())) {
            return RouteKind.SOCKET;
        }
        if (!Networks.isIb(n.network())) {
            return RouteKind.PLUGIN_NET;
        }
        return n.otherLines() == 0 ? RouteKind.RDMA_GDR : n.gdrLines() == 0 ? RouteKind.RDMA_HOST_STAGED
                : RouteKind.RDMA_PARTIAL_GDR;
    }

    /** How many named hosts printed NET lines (lines without a host are not one). */
    public int namedHosts() {
        return (int) byHost.keySet().stream().filter(h -> !h.isEmpty()).count();
    }

    /** The named hosts whose worst path is k, in first-seen order. */
    public List<String> hostsOn(RouteKind k, NcclLogEvidence e) {
        List<String> out = new ArrayList<>();
        for (HostFacts h : e.hostFacts()) {
            if (!h.host().isEmpty() && byHost.get(h.host()) == k) {
                out.add(h.host());
            }
        }
        return out;
    }

    /** The first NET line of each host on path k ("file:line: host h: 12 NET/Socket connection line(s)"), at most max. */
    public List<String> evidence(RouteKind k, NcclLogEvidence e, int max) {
        List<String> out = new ArrayList<>();
        for (HostFacts h : e.hostFacts()) {
            if (out.size() >= max) {
                break;
            }
            if (byHost.get(h.host()) != k) {
                continue;
            }
            for (HostNet n : h.networks()) {
                if (kind(n) == k) {
                    var at = n.firstOther() != null ? n.firstOther() : n.first();
                    out.add(at + ": " + (h.host().isEmpty() ? "hosts not named" : "host " + h.host()) + ": "
                            + n.lines() + " NET/" + n.network() + " connection line(s), " + n.gdrLines() + " with GDRDMA");
                    break;
                }
            }
        }
        return out;
    }

    /** The network name of the first host on path k, or "". */
    public String network(RouteKind k, NcclLogEvidence e) {
        for (HostFacts h : e.hostFacts()) {
            for (HostNet n : h.networks()) {
                if (kind(n) == k) {
                    return n.network();
                }
            }
        }
        return "";
    }

    /** "node-0700, node-0901 and 3 more" for at most max names. */
    public static String names(List<String> hosts, int max) {
        String shown = String.join(", ", hosts.subList(0, Math.min(max, hosts.size())));
        return hosts.size() > max ? shown + " and " + (hosts.size() - max) + " more" : shown;
    }
}
