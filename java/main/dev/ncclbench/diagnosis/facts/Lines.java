package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.Direction;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;
import dev.ncclbench.nccllog.Networks;
import dev.ncclbench.nccllog.Transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How evidence is quoted in findings: one line per item, "file:line: what it says". */
public final class Lines {
    /** The most evidence lines a finding quotes. */
    public static final int MAX_EVIDENCE = 8;

    private Lines() {
    }

    public static String describe(Connection c) {
        String side = c.direction() == Direction.SEND ? " [send]" : c.direction() == Direction.RECEIVE
                ? " [receive]" : "";
        String via = switch (c.transport()) {
            case NET -> "NET/" + c.netName() + "/" + c.netDev() + c.detail();
            default -> c.transport() + (c.detail().isEmpty() ? "" : "/" + c.detail());
        };
        String gdrNote = c.transport() == Transport.NET && !Networks.isSocket(c.netName()) && !c.gdr()
                ? " (no GDRDMA)" : "";
        return c.firstSeen() + ": " + c.fromRank() + " -> " + c.toRank() + side + " via " + via + gdrNote + " ("
                + c.channels() + " channel" + (c.channels() == 1 ? "" : "s") + (c.host().isEmpty() ? "" : ", "
                + c.host()) + ")";
    }

    public static List<String> describe(List<Connection> cs, int limit) {
        return cs.stream().limit(limit).map(Lines::describe).toList();
    }

    public static String warning(Warning w) {
        if (w.function().equals(FailureKind.ERROR_RETURN)) {
            return w.source() + ": error return " + w.message(); // an INFO trace: "include/net.h:24 -> 2"
        }
        return w.source() + ": " + (w.ncclFile().isEmpty() ? "" : w.ncclFile() + ":" + w.ncclLine() + " ")
                + (w.ncclFile().isEmpty() ? "" : "WARN ") + w.message();
    }

    public static List<String> warnings(List<Warning> ws) {
        return ws.stream().limit(MAX_EVIDENCE).map(Lines::warning).toList();
    }

    /** "send GDRDMA, receive without GDRDMA"... for one pair's NET connections. */
    public static String gdrSides(List<Connection> nets) {
        List<String> parts = new ArrayList<>();
        for (Direction d : Direction.values()) {
            List<Connection> side = nets.stream().filter(c -> c.direction() == d).toList();
            if (side.isEmpty()) {
                continue;
            }
            long g = side.stream().filter(Connection::gdr).count();
            String name = d == Direction.UNSPECIFIED ? "both sides" : d.name().toLowerCase(Locale.ROOT);
            parts.add(name + (g == side.size() ? " GDRDMA" : g == 0 ? " without GDRDMA" : " partly GDRDMA"));
        }
        return String.join(", ", parts);
    }

    /** "on gpu-b (rank 1, pid 5202) at misc/socket.cc:483: socketStartConnect: Connect to ... failed". */
    static String describeFailure(NcclLogEvidence e, Warning w) {
        StringBuilder sb = new StringBuilder();
        if (!w.host().isEmpty()) {
            sb.append("first on ").append(w.host());
            String rank = e.ranks().stream().filter(r -> r.host().equals(w.host()) && r.pid() == w.pid())
                    .map(r -> "rank " + r.rank()).distinct().reduce((a, b) -> a + "/" + b).orElse("");
            List<String> who = new ArrayList<>();
            if (!rank.isEmpty()) {
                who.add(rank);
            }
            if (w.pid() >= 0) {
                who.add("pid " + w.pid());
            }
            if (!who.isEmpty()) {
                sb.append(" (").append(String.join(", ", who)).append(')');
            }
            sb.append(' ');
        }
        sb.append("at ").append(w.source());
        if (!w.ncclFile().isEmpty()) {
            sb.append(" (").append(w.ncclFile()).append(':').append(w.ncclLine()).append(')');
        }
        return sb.append(": ").append(w.message()).toString();
    }
}
