package dev.ncclbench.fleet;

/** What the search concluded about one node, and why, in words. */
public record NodeVerdict(int rank, Status status, String reason) {
    public enum Status {
        GOOD("good"), SLOW("slow"), UNREACHABLE("unreachable"), UNDECIDED("undecided");

        public final String label;

        Status(String label) {
            this.label = label;
        }
    }

    /** Whether the node belongs on the drain list. */
    public boolean bad() {
        return status == Status.SLOW || status == Status.UNREACHABLE;
    }
}
