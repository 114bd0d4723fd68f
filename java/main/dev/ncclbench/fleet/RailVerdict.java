package dev.ncclbench.fleet;

/**
 * What the rail round concluded about one rail of one node.
 *
 * @param busbw      the best result this rail reached (GB/s; NaN when none)
 * @param siblingsLo the lowest of its siblings' results (the node's other rails, the same rail on other nodes), NaN when none
 * @param siblingsHi the highest of them, NaN when none
 * @param lineFloor  the healthy minimum of the rail's line rate from the catalog (GB/s), NaN when none is known
 * @param reason     one line: the rail, its figure, its siblings' and what follows
 */
public record RailVerdict(int rank, int rail, String nic, Status status, double busbw, double siblingsLo, double siblingsHi,
                          double lineFloor, String reason) {
    public enum Status {
        OK("ok"),
        /** Below its siblings or its line rate, with a partner that was fine on the same rail with another node. */
        SLOW("slow"),
        /** The node reported it down: no traffic can use it. */
        DOWN("down"),
        /** Slow, but only with partners that were slow on that rail everywhere: which end cannot be told. */
        UNDECIDED("undecided"),
        /** Nothing to judge by: unmeasured (no partner, its node lost) or no sibling and no line rate. */
        NOT_JUDGED("not judged");

        public final String label;

        Status(String label) {
            this.label = label;
        }
    }

    /** Whether the node belongs on the drain list for this rail. */
    public boolean bad() {
        return status == Status.SLOW || status == Status.DOWN;
    }

    /** "rail 3 (eth3)". */
    String name() {
        return "rail " + rail + " (" + nic + ")";
    }
}
