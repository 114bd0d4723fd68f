package dev.ncclbench.launch;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;

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

    static LaunchInfo detect(Host machine, String masterAddr, int masterPort) {
        int ntasks = LaunchDetector.intOr(machine, Variable.SLURM_NTASKS, 1);
        int nnodes = LaunchDetector.intOr(machine, Variable.SLURM_NNODES, -1);
        int localSize = tasksOnThisNode(machine);
        if (localSize < 0 && nnodes == 1) {
            localSize = ntasks;
        }
        String host = masterAddr;
        if (host == null) {
            for (Variable key : new Variable[] {Variable.SLURM_STEP_NODELIST, Variable.SLURM_JOB_NODELIST, Variable.SLURM_NODELIST}) {
                String list = LaunchDetector.blankToNull(machine.get(key));
                if (list != null) {
                    host = SlurmHostList.first(list, key.name());
                    break;
                }
            }
        }
        String job = LaunchDetector.blankToNull(machine.get(Variable.SLURM_JOB_ID));
        String step = LaunchDetector.blankToNull(machine.has(Variable.SLURM_STEP_ID) ? machine.get(Variable.SLURM_STEP_ID)
                : machine.get(Variable.SLURM_STEPID));
        String jobId = job == null ? null : step == null ? job : job + "." + step;
        return new LaunchInfo(LaunchDetector.intOr(machine, Variable.SLURM_PROCID, 0), ntasks, LaunchDetector.intOr(machine, Variable.SLURM_LOCALID, 0),
                localSize, host, masterPort, jobId, "slurm");
    }

    /** SLURM_STEP_TASKS_PER_NODE ("2(x3),1": 2 on each of the first three nodes, 1 on the fourth) at SLURM_NODEID. */
    private static int tasksOnThisNode(Host host) {
        Variable key = host.has(Variable.SLURM_STEP_TASKS_PER_NODE) ? Variable.SLURM_STEP_TASKS_PER_NODE
                : Variable.SLURM_TASKS_PER_NODE;
        String spec = LaunchDetector.blankToNull(host.get(key));
        String nodeId = LaunchDetector.blankToNull(host.get(Variable.SLURM_NODEID));
        if (spec == null || nodeId == null) {
            return -1;
        }
        int node = LaunchDetector.intOr(host, Variable.SLURM_NODEID, 0);
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
