package dev.ncclbench.sweep;

import dev.ncclbench.backend.RankComm;

import java.util.List;

/**
 * One header line with the connections this process's ranks hold, where the backend makes its own: a rank connects
 * only to the peers its collectives use (ring neighbours, recursive-doubling partners, roots), so the line shows
 * what a full mesh would have cost (N-1 peers a rank) against what it holds. ss -tn counts the same sockets.
 */
final class LinkNotes {
    private LinkNotes() {
    }

    static void add(List<RankComm> comms, List<String> notes) {
        int peers = -1;
        int connections = -1;
        int rank = -1;
        for (RankComm c : comms) {
            RankComm.Links l = c.links();
            if (l != null && l.connections() > connections) {
                peers = l.peers();
                connections = l.connections();
                rank = c.rank();
            }
        }
        if (connections < 0) {
            return;
        }
        int n = comms.get(0).nranks();
        notes.add("connections: each rank of this process holds at most " + connections + " TCP connection(s) to "
                + peers + " of its " + (n - 1) + " peers (rank " + rank + "; only the peers its collectives use"
                + (comms.size() > 1 ? ", over " + comms.size() + " local ranks" : "") + ")");
    }
}
