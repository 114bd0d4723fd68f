package dev.ncclbench.launch;

/**
 * Who this process is in the job.
 *
 * @param rank        this process's index among processes
 * @param size        the number of processes
 * @param localRank   index among the processes on this node (picks the GPU)
 * @param localSize   processes on this node, or -1 when the launcher does not say
 * @param masterAddr  rank 0's rendezvous host, or null when the launcher gives none
 * @param masterPort  rank 0's rendezvous port, or 0 to derive one
 * @param jobId       the launcher's job id (shared by every process of the job), or null
 * @param launcher    "torchrun", "slurm", "openmpi", "pmi", "flags" or "none"
 */
public record LaunchInfo(int rank, int size, int localRank, int localSize, String masterAddr, int masterPort,
                         String jobId, String launcher) {

    public static LaunchInfo single() {
        return new LaunchInfo(0, 1, 0, 1, null, 0, null, "none");
    }

    /** Whether every process of the job runs on this node, as far as the launcher tells. */
    public boolean singleNode() {
        return size == 1 || localSize == size || loopback(masterAddr);
    }

    /** A rendezvous on loopback can only be reached from this host: every rank is here. */
    static boolean loopback(String host) {
        return host != null && (host.startsWith("127.") || host.equals("localhost") || host.equals("::1"));
    }
}
