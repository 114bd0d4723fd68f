package dev.ncclbench.diagnosis.facts;

import java.util.List;
import java.util.stream.Collectors;

/** The sentences the NIC rules and explain's text print about {@link NicLoad}s. */
public final class NicLines {
    private NicLines() {
    }

    /** "node7 mlx5_3 carried 0 of 32 NET channels; its siblings 4 each". */
    public static String sentence(NicLoad n) {
        return (n.host().isEmpty() ? "" : n.host() + " ") + n.nic() + " " + n.why();
    }

    /** The NICs with that verdict, in order. */
    public static List<NicLoad> with(List<NicLoad> all, String verdict) {
        return all.stream().filter(n -> n.verdict().equals(verdict)).toList();
    }

    /** "gpu-b07 mlx5_3, gpu-c02 mlx5_0 and 3 more": the first six named. */
    public static String names(List<NicLoad> nics) {
        List<String> names = nics.stream().map(n -> (n.host().isEmpty() ? "" : n.host() + " ") + n.nic()).toList();
        return String.join(", ", names.subList(0, Math.min(6, names.size())))
                + (names.size() > 6 ? " and " + (names.size() - 6) + " more" : "");
    }

    /** The host lines of the first six, each once: a finding's evidence. */
    public static List<String> hosts(List<NicLoad> all, List<NicLoad> of) {
        return of.stream().limit(6).map(n -> host(all, n)).distinct().toList();
    }

    /** One host's NICs of one network: "node7 (IB): mlx5_0 4, mlx5_1 4, mlx5_3 0 unused". */
    public static String host(List<NicLoad> all, NicLoad of) {
        return (of.host().isEmpty() ? "(no host)" : of.host()) + " (" + of.network() + "): " + all.stream()
                .filter(n -> n.host().equals(of.host()) && n.network().equals(of.network()))
                .map(NicLines::count).collect(Collectors.joining(", "));
    }

    /** "mlx5_3 4 (2 peers)", "mlx5_0 0 +6 send/recv", "mlx5_2 8 overloaded". */
    public static String count(NicLoad n) {
        StringBuilder sb = new StringBuilder(n.nic()).append(' ').append(n.channels());
        if (n.p2pChannels() > 0) {
            sb.append(" +").append(n.p2pChannels()).append(" send/recv");
        }
        sb.append(" (").append(n.peers()).append(n.peers() == 1 ? " peer)" : " peers)");
        if (n.verdict().equals(NicLoad.UNUSED) || n.verdict().equals(NicLoad.OVERLOADED)) {
            sb.append(' ').append(n.verdict().toUpperCase(java.util.Locale.ROOT));
        }
        return sb.toString();
    }
}
