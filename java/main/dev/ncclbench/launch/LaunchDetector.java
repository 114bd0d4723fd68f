package dev.ncclbench.launch;

import dev.ncclbench.NcclbenchException;

import java.util.Map;

/**
 * Reads rank, size and local rank from the launchers people already use: torchrun, Slurm, Open MPI, PMI
 * (MPICH/Hydra, Intel MPI), or explicit flags. Flags win over the environment.
 */
public final class LaunchDetector {
    private LaunchDetector() {
    }

    /** Every launcher variable this reads, with the smallest value it may take (ports also have a largest). */
    private static final Map<String, Integer> LOWEST = Map.ofEntries(
            Map.entry("RANK", 0), Map.entry("WORLD_SIZE", 1), Map.entry("LOCAL_RANK", 0), Map.entry("LOCAL_WORLD_SIZE", 1),
            Map.entry("MASTER_PORT", 1), Map.entry("OMPI_COMM_WORLD_RANK", 0), Map.entry("OMPI_COMM_WORLD_SIZE", 1),
            Map.entry("OMPI_COMM_WORLD_LOCAL_RANK", 0), Map.entry("OMPI_COMM_WORLD_LOCAL_SIZE", 1),
            Map.entry("SLURM_PROCID", 0), Map.entry("SLURM_NTASKS", 1), Map.entry("SLURM_LOCALID", 0),
            Map.entry("SLURM_NNODES", 1), Map.entry("SLURM_NODEID", 0), Map.entry("PMI_RANK", 0), Map.entry("PMI_SIZE", 1));

    public static LaunchInfo detect(Map<String, String> env, Integer rankFlag, Integer sizeFlag) {
        // a variable that is set must make sense, whether or not the rest of its launcher's set is there
        LOWEST.forEach((key, lowest) -> intOr(env, key, lowest));
        if (env.containsKey("RANK") != env.containsKey("WORLD_SIZE")) {
            throw NcclbenchException.usage((env.containsKey("RANK") ? "RANK is set but WORLD_SIZE is not"
                    : "WORLD_SIZE is set but RANK is not") + ": torchrun-style launches set both (or neither)");
        }
        String masterAddr = blankToNull(env.get("MASTER_ADDR"));
        int masterPort = intOr(env, "MASTER_PORT", 0);
        LaunchInfo found;
        if (env.containsKey("RANK") && env.containsKey("WORLD_SIZE")) {
            found = new LaunchInfo(intOr(env, "RANK", 0), intOr(env, "WORLD_SIZE", 1), intOr(env, "LOCAL_RANK", 0),
                    intOr(env, "LOCAL_WORLD_SIZE", -1), masterAddr, masterPort,
                    first(env, "TORCHELASTIC_RUN_ID", "MASTER_ADDR"), "torchrun");
        } else if (env.containsKey("OMPI_COMM_WORLD_RANK") && env.containsKey("OMPI_COMM_WORLD_SIZE")) {
            found = new LaunchInfo(intOr(env, "OMPI_COMM_WORLD_RANK", 0), intOr(env, "OMPI_COMM_WORLD_SIZE", 1),
                    intOr(env, "OMPI_COMM_WORLD_LOCAL_RANK", 0), intOr(env, "OMPI_COMM_WORLD_LOCAL_SIZE", -1),
                    masterAddr, masterPort, first(env, "OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE"), "openmpi");
        } else if (env.containsKey("SLURM_PROCID") && env.containsKey("SLURM_NTASKS") && slurmStep(env)) {
            found = SlurmLaunch.detect(env, masterAddr, masterPort);
        } else if (env.containsKey("PMI_RANK") && env.containsKey("PMI_SIZE")) {
            found = new LaunchInfo(intOr(env, "PMI_RANK", 0), intOr(env, "PMI_SIZE", 1),
                    intOr(env, "MPI_LOCALRANKID", intOr(env, "PMI_LOCAL_RANK", 0)),
                    intOr(env, "MPI_LOCALNRANKS", intOr(env, "PMI_LOCAL_SIZE", -1)), masterAddr, masterPort,
                    first(env, "PMI_ID", "PMI_KVSNAME"), "pmi");
        } else {
            found = new LaunchInfo(0, 1, 0, 1, masterAddr, masterPort, null, "none");
        }
        if (rankFlag != null || sizeFlag != null) {
            if (rankFlag == null || sizeFlag == null) {
                throw NcclbenchException.usage("--rank and --world-size go together");
            }
            found = new LaunchInfo(rankFlag, sizeFlag, found.launcher().equals("none") ? rankFlag : found.localRank(),
                    -1, masterAddr, masterPort, found.jobId(), "flags");
        }
        if (found.size() < 1) {
            throw NcclbenchException.usage(found.launcher().equals("flags") ? "--world-size must be 1 or more, got " + found.size()
                    : "the " + found.launcher() + " launcher says the job has " + found.size() + " processes");
        }
        if (found.rank() < 0 || found.rank() >= found.size()) {
            throw NcclbenchException.usage(found.launcher().equals("flags")
                    ? "--rank " + found.rank() + " is outside --world-size " + found.size() + " (0 to " + (found.size() - 1) + ")"
                    : "the " + found.launcher() + " launcher's rank " + found.rank() + " is outside its job of " + found.size()
                    + " processes");
        }
        return found;
    }

    /**
     * A task of srun, not Slurm's batch script: sbatch gives its script SLURM_PROCID=0 and the job's SLURM_NTASKS
     * too, but no step id, and a command started there without srun is one process (it would otherwise wait for
     * ranks that never come).
     */
    private static boolean slurmStep(Map<String, String> env) {
        return blankToNull(env.get("SLURM_STEP_ID")) != null || blankToNull(env.get("SLURM_STEPID")) != null;
    }

    static int intOr(Map<String, String> env, String key, int dflt) {
        String v = env.get(key);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw NcclbenchException.usage(key + "=" + v + " is not a number");
        }
        Integer lowest = LOWEST.get(key);
        if (lowest != null && n < lowest) {
            throw NcclbenchException.usage(key + "=" + v + " is below " + lowest);
        }
        if (key.endsWith("_PORT") && n > 65535) {
            throw NcclbenchException.usage(key + "=" + v + " is not a port (1-65535)");
        }
        return n;
    }

    private static String first(Map<String, String> env, String... keys) {
        for (String k : keys) {
            String v = blankToNull(env.get(k));
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
