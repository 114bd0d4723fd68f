package dev.ncclbench.fleet;

/** Pass one: how every node first gets measured. */
public enum Survey {
    /** One round of random disjoint pairs: N/2 links, one flow per node. */
    PAIRS("pairs"),
    /** Every pair at once in one round, each on its own connections: every link, sharing each node's NIC. */
    ALL("all"),
    /** N-1 rounds of disjoint pairs (the circle method): every link, one flow per node. */
    ROUND_ROBIN("round-robin");

    public final String label;

    Survey(String label) {
        this.label = label;
    }

    public static Survey parse(String s) {
        for (Survey v : values()) {
            if (v.label.equals(s)) {
                return v;
            }
        }
        return null;
    }
}
