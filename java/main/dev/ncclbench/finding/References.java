package dev.ncclbench.finding;

/** Where remedies are explained: one place, so every rule cites the same words. */
public final class References {
    public static final String NCCLBENCH = "ncclbench (docs/explain.md)";
    /** The runbook users have: its GPU (GPUDirect, ACS) and networking (IB, RoCE) pages cover these remedies. */
    public static final String RUNBOOK = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html";
    public static final String ENV_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html";
    public static final String NET_DOC =
            "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/networking_troubleshooting.html";

    private References() {
    }
}
