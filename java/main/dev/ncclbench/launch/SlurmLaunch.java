package dev.ncclbench.launch;

import dev.ncclbench.NcclbenchException;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A task of {@code srun}, from the variables slurmstepd sets: rank SLURM_PROCID of SLURM_NTASKS, local rank
 * SLURM_LOCALID, the tasks on this node from SLURM_STEP_TASKS_PER_NODE at SLURM_NODEID, and rank 0's host as the
 * first node of SLURM_STEP_NODELIST (else SLURM_JOB_NODELIST): srun's default block distribution places task 0
 * there. No PMI or PMIx is needed. The job id is "JOB.STEP", from which the rendezvous derives its port, so two
 * steps of one job meet on different ports.
 */
final class SlurmLaunch {
    private static final Pattern TASKS = Pattern.compile("([0-9]{1,9})(?:\\(x([0-9]{1,9})\\))?");

    private SlurmLaunch() {
    }

    static LaunchInfo detect(Map<String, String> env, String masterAddr, int masterPort) {
        int ntasks = LaunchDetector.intOr(env, "SLURM_NTASKS", 1);
        int nnodes = LaunchDetector.intOr(env, "SLURM_NNODES", -1);
        int localSize = tasksOnThisNode(env);
        if (localSize < 0 && nnodes == 1) {
            localSize = ntasks;
        }
        String host = masterAddr;
        if (host == null) {
            for (String key : new String[] {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST", "SLURM_NODELIST"}) {
                String list = LaunchDetector.blankToNull(env.get(key));
                if (list != null) {
                    host = SlurmHostList.first(list, key);
                    break;
                }
            }
        }
        String job = LaunchDetector.blankToNull(env.get("SLURM_JOB_ID"));
        String step = LaunchDetector.blankToNull(env.getOrDefault("SLURM_STEP_ID", env.get("SLURM_STEPID")));
        String jobId = job == null ? null : step == null ? job : job + "." + step;
        return new LaunchInfo(LaunchDetector.intOr(env, "SLURM_PROCID", 0), ntasks, LaunchDetector.intOr(env, "SLURM_LOCALID", 0),
                localSize, host, masterPort, jobId, "slurm");
    }

    /** SLURM_STEP_TASKS_PER_NODE ("2(x3),1": 2 on each of the first three nodes, 1 on the fourth) at SLURM_NODEID. */
    private static int tasksOnThisNode(Map<String, String> env) {
        String key = env.containsKey("SLURM_STEP_TASKS_PER_NODE") ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE";
        String spec = LaunchDetector.blankToNull(env.get(key));
        String nodeId = LaunchDetector.blankToNull(env.get("SLURM_NODEID"));
        if (spec == null || nodeId == null) {
            return -1;
        }
        int node = LaunchDetector.intOr(env, "SLURM_NODEID", 0);
        long seen = 0;
        for (String part : spec.split(",")) {
            Matcher m = TASKS.matcher(part.trim());
            if (!m.matches()) {
                throw NcclbenchException.usage(key + "=" + spec + " is not Slurm's tasks-per-node list (as 2(x3),1)");
            }
            int count = Integer.parseInt(m.group(1));
            int repeat = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            if (node < seen + repeat) {
                return count;
            }
            seen += repeat;
        }
        throw NcclbenchException.usage(key + "=" + spec + " names " + seen + " nodes but SLURM_NODEID=" + node
                + " is outside them");
    }
}
