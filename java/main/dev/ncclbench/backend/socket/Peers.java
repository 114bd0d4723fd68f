package dev.ncclbench.backend.socket;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.spec.RunSpec;

/**
 * The peers a rank's collectives talk to, and so the only ones its mesh connects: the ring neighbours (ring,
 * chain, sendrecv), the recursive-doubling and Rabenseifner partners (all_reduce), a rooted collective's root, and
 * the hypercube partners (rank ^ 2^k), and
 * every rank only where the collective itself sends to every rank (alltoall, alltoallv; gather and scatter on the root, on
 * every rank with -r -1). At 1024 ranks an all_reduce sweep holds 2 + log2(N) connections a rank, not N - 1. The
 * relation is symmetric (a partner's partner is this rank), so both ends agree on every link.
 */
final class Peers {
    private Peers() {
    }

    /** Whether this rank links to each peer (its own entry false). */
    static boolean[] needed(RunSpec spec, int rank, int n) {
        boolean[] need = new boolean[n];
        for (String name : spec.collectives()) {
            switch (Collectives.byName(name).kind()) {
                case ALL_REDUCE -> {
                    ring(need, rank, n);
                    halvingPartners(need, rank, n);
                }
                case REDUCE_SCATTER, ALL_GATHER, BROADCAST, REDUCE, SENDRECV -> ring(need, rank, n);
                case ALLTOALL, ALLTOALLV -> java.util.Arrays.fill(need, true);
                case HYPERCUBE -> {
                    for (int mask = 1; mask < n; mask <<= 1) {
                        need[(rank ^ mask) < n ? rank ^ mask : rank] = true;
                    }
                }
                case GATHER, SCATTER -> {
                    if (spec.data().root() < 0 || spec.data().root() == rank) {
                        java.util.Arrays.fill(need, true);
                    } else if (spec.data().root() < n) {
                        need[spec.data().root()] = true;
                    }
                }
            }
        }
        need[rank] = false;
        return need;
    }

    /** Every peer: the mesh as it was, for callers that plan no collective (tests). */
    static boolean[] all(int rank, int n) {
        boolean[] need = new boolean[n];
        java.util.Arrays.fill(need, true);
        need[rank] = false;
        return need;
    }

    /** An exchange with a peer this rank has no link to is a planning error, said as such rather than a null link. */
    static void requireLinked(boolean[] linked, int rank, java.util.List<Xfer> xs, String what) {
        for (int i = 0; i < xs.size(); i++) {
            int peer = xs.get(i).peer();
            if (!linked[peer]) {
                throw new BackendException(ExitCode.INTERNAL, "rank " + rank
                        + " has no connection to rank " + peer + " for " + what + ": the socket backend's peer plan (Peers)"
                        + " misses it", null);
            }
        }
    }

    /** The ranks {@code need} holds, in rank order. */
    static int[] ranks(boolean[] need) {
        int[] out = new int[count(need)];
        for (int r = 0, i = 0; r < need.length; r++) {
            if (need[r]) {
                out[i++] = r;
            }
        }
        return out;
    }

    static int count(boolean[] need) {
        int c = 0;
        for (boolean b : need) {
            c += b ? 1 : 0;
        }
        return c;
    }

    private static void ring(boolean[] need, int rank, int n) {
        need[Math.floorMod(rank + 1, n)] = true;
        need[Math.floorMod(rank - 1, n)] = true;
    }

    /** AllReducePlan's recursive doubling and halving partners: the same pairs, folded beyond the power of two. */
    private static void halvingPartners(boolean[] need, int rank, int n) {
        int p = Integer.highestOneBit(n);
        int extra = n - p;
        if (rank < 2 * extra) {
            need[rank % 2 == 0 ? rank + 1 : rank - 1] = true;
            if (rank % 2 == 0) {
                return; // hands its data over to rank + 1 and takes no part in the steps
            }
        }
        int me = rank < 2 * extra ? rank / 2 : rank - extra;
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = me ^ mask;
            need[partner < extra ? partner * 2 + 1 : partner + extra] = true;
        }
    }
}
