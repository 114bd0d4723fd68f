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

    public static LaunchInfo detect(Map<String, String> env, Integer rankFlag, Integer sizeFlag) {
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
        } else if (env.containsKey("SLURM_PROCID") && env.containsKey("SLURM_NTASKS")) {
            int nnodes = intOr(env, "SLURM_NNODES", -1);
            int ntasks = intOr(env, "SLURM_NTASKS", 1);
            found = new LaunchInfo(intOr(env, "SLURM_PROCID", 0), ntasks, intOr(env, "SLURM_LOCALID", 0),
                    nnodes == 1 ? ntasks : -1, masterAddr, masterPort,
                    join(env.get("SLURM_JOB_ID"), env.get("SLURM_STEP_ID")), "slurm");
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
            throw NcclbenchException.usage("the launcher says the job has " + found.size() + " processes");
        }
        if (found.rank() < 0 || found.rank() >= found.size()) {
            throw NcclbenchException.usage("rank " + found.rank() + " is outside a job of " + found.size() + " processes");
        }
        return found;
    }

    private static int intOr(Map<String, String> env, String key, int dflt) {
        String v = env.get(key);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw NcclbenchException.usage(key + "=" + v + " is not a number");
        }
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

    private static String join(String a, String b) {
        if (a == null) {
            return null;
        }
        return b == null ? a : a + "." + b;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
