package dev.ncclbench.collective;

/**
 * Which collective a call is. Backends switch over it with no default, so a collective added here fails to
 * compile in every backend that cannot run it yet, instead of failing at run time.
 */
public enum Kind {
    ALL_REDUCE("all_reduce"),
    ALL_GATHER("all_gather"),
    REDUCE_SCATTER("reduce_scatter"),
    BROADCAST("broadcast"),
    REDUCE("reduce"),
    ALLTOALL("alltoall"),
    SENDRECV("sendrecv"),
    GATHER("gather"),
    SCATTER("scatter"),
    ALLTOALLV("alltoallv"),
    HYPERCUBE("hypercube");

    private final String label;

    Kind(String label) {
        this.label = label;
    }

    /** nccl-tests' name, e.g. "all_reduce": what users type and what the table prints. */
    public String label() {
        return label;
    }
}
