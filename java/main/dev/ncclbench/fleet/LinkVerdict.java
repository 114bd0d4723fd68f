package dev.ncclbench.fleet;

/**
 * What the search concluded about the path between two nodes that were measured as a pair.
 *
 * @param ratio the last usable result over its reference (NaN when none was usable)
 * @param busbw the last usable result, GB/s (NaN when none)
 */
public record LinkVerdict(int a, int b, Status status, double busbw, double ratio, String reason) {
    public enum Status {
        GOOD("good"),
        BAD("bad"),
        /** Slow because an end of it is a slow node: the node is the finding, not the link. */
        EXPLAINED("slow: explained by a slow node"),
        /** An end was lost, so the result says nothing. */
        NOT_JUDGED("not judged"),
        UNDECIDED("undecided");

        public final String label;

        Status(String label) {
            this.label = label;
        }
    }
}
