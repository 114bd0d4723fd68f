package dev.ncclbench.launch;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;

import java.util.EnumMap;
import java.util.Map;

import static dev.ncclbench.env.Variable.*;

/**
 * Reads rank, size and local rank from the launchers people already use: torchrun, Slurm, Open MPI, PMI
 * (MPICH/Hydra, Intel MPI), or explicit flags. Flags win over the environment.
 */
public final class LaunchDetector {
    private LaunchDetector() {
    }

    /** Every launcher variable this reads, with the smallest value it may take (ports also have a largest). */
    private static final Map<Variable, Integer> LOWEST = new EnumMap<>(Map.ofEntries(
            Map.entry(RANK, 0), Map.entry(WORLD_SIZE, 1), Map.entry(LOCAL_RANK, 0), Map.entry(LOCAL_WORLD_SIZE, 1),
            Map.entry(MASTER_PORT, 1), Map.entry(OMPI_COMM_WORLD_RANK, 0), Map.entry(OMPI_COMM_WORLD_SIZE, 1),
            Map.entry(OMPI_COMM_WORLD_LOCAL_RANK, 0), Map.entry(OMPI_COMM_WORLD_LOCAL_SIZE, 1),
            Map.entry(SLURM_PROCID, 0), Map.entry(SLURM_NTASKS, 1), Map.entry(SLURM_LOCALID, 0),
            Map.entry(SLURM_NNODES, 1), Map.entry(SLURM_NODEID, 0), Map.entry(PMI_RANK, 0), Map.entry(PMI_SIZE, 1)));

    public static LaunchInfo detect(Host host, Integer rankFlag, Integer sizeFlag) {
        // a variable that is set must make sense, whether or not the rest of its launcher's set is there
        LOWEST.forEach((key, lowest) -> intOr(host, key, lowest));
        if (host.has(RANK) != host.has(WORLD_SIZE)) {
            throw NcclbenchException.usage((host.has(RANK) ? "RANK is set but WORLD_SIZE is not"
                    : "WORLD_SIZE is set but RANK is not") + ": torchrun-style launches set both (or neither)");
        }
        String masterAddr = blankToNull(host.get(MASTER_ADDR));
        int masterPort = intOr(host, MASTER_PORT, 0);
        LaunchInfo found;
        if (host.has(RANK) && host.has(WORLD_SIZE)) {
            found = new LaunchInfo(intOr(host, RANK, 0), intOr(host, WORLD_SIZE, 1), intOr(host, LOCAL_RANK, 0),
                    intOr(host, LOCAL_WORLD_SIZE, -1), masterAddr, masterPort,
                    first(host, TORCHELASTIC_RUN_ID, MASTER_ADDR), "torchrun");
        } else if (host.has(OMPI_COMM_WORLD_RANK) && host.has(OMPI_COMM_WORLD_SIZE)) {
            found = new LaunchInfo(intOr(host, OMPI_COMM_WORLD_RANK, 0), intOr(host, OMPI_COMM_WORLD_SIZE, 1),
                    intOr(host, OMPI_COMM_WORLD_LOCAL_RANK, 0), intOr(host, OMPI_COMM_WORLD_LOCAL_SIZE, -1),
                    masterAddr, masterPort, first(host, OMPI_MCA_ess_base_jobid, PMIX_NAMESPACE), "openmpi");
        } else if (host.has(SLURM_PROCID) && host.has(SLURM_NTASKS) && slurmStep(host)) {
            found = SlurmLaunch.detect(host, masterAddr, masterPort);
        } else if (host.has(PMI_RANK) && host.has(PMI_SIZE)) {
            found = new LaunchInfo(intOr(host, PMI_RANK, 0), intOr(host, PMI_SIZE, 1),
                    intOr(host, MPI_LOCALRANKID, intOr(host, PMI_LOCAL_RANK, 0)),
                    intOr(host, MPI_LOCALNRANKS, intOr(host, PMI_LOCAL_SIZE, -1)), masterAddr, masterPort,
                    first(host, PMI_ID, PMI_KVSNAME), "pmi");
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
    private static boolean slurmStep(Host host) {
        return blankToNull(host.get(SLURM_STEP_ID)) != null || blankToNull(host.get(SLURM_STEPID)) != null;
    }

    static int intOr(Host host, Variable key, int dflt) {
        String v = host.get(key);
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
        if (key.name().endsWith("_PORT") && n > 65535) {
            throw NcclbenchException.usage(key + "=" + v + " is not a port (1-65535)");
        }
        return n;
    }

    private static String first(Host host, Variable... keys) {
        for (Variable k : keys) {
            String v = blankToNull(host.get(k));
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
