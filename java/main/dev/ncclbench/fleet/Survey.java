package dev.ncclbench.fleet;

/** Pass one: how every node first gets measured. */
public enum Survey {
    /** One round of random disjoint pairs: N/2 links, one flow per node. */
    PAIRS("pairs"),
    /** Every pair at once in one round, each on its own connections: every link, sharing each node's NIC. */
    ALL("all"),
    /** N-1 rounds of disjoint pairs (the circle method): every link, one flow per node. */
    ROUND_ROBIN("round-robin"),
    /**
     * Every link in about log2(N) - 3 rounds: the circle method's N-1 matchings dealt out in batches, each node
     * in one pair of each matching of its round at once. For large jobs, where one pair per node cannot reach
     * every link within a search and every pair at once is too many connections and too little rate per pair.
     */
    BATCHES("batches");

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
