package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.launch.SlurmHostList;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;

import java.util.List;
import java.util.Optional;

/**
 * The launcher's node names by rank, so that a node that never joined is named as the scheduler knows it:
 * --node-list, else Slurm's SLURM_JOB_NODELIST when the job runs one task per node (rank r on the r-th node of
 * the list, Slurm's block distribution), read by the one parser of Slurm's host lists ({@link SlurmHostList}).
 */
final class NodeList {
    /**
     * One node as a scheduler names it: letters, digits, '.', '-' and '_', at most 255. No brackets, commas or blanks:
     * `scontrol update nodename=` reads "gpu[100-163]" or "a,b" as many nodes, and a newline as two lines of a drain list.
     */
    private static final java.util.regex.Pattern NODE = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,254}");

    private NodeList() {
    }

    /** Whether {@code name} names one node ({@link #NODE}). */
    static boolean isNodeName(String name) {
        return name != null && NODE.matcher(name).matches();
    }

    /** {@code name} fit for a one-line message: what is not printable ASCII as '?', at most 64 characters. */
    static String quoted(String name) {
        String s = name == null ? "" : name.replaceAll("[^\\x20-\\x7e]", "?");
        return "'" + (s.length() > 64 ? s.substring(0, 64) + "..." : s) + "'";
    }

    /** Names by rank, or empty when no list is known or it does not have one name per rank. */
    static Optional<List<String>> of(String flag, Host host, int world) {
        if (flag != null) {
            List<String> names = SlurmHostList.expand(flag, "--node-list");
            if (names.size() != world) {
                throw NcclbenchException.usage("--node-list names " + names.size() + " node" + (names.size() == 1 ? "" : "s")
                        + " but the job has " + world + " processes: give one name per rank, in rank order");
            }
            return Optional.of(names);
        }
        String slurm = host.get(Variable.SLURM_JOB_NODELIST);
        if (slurm != null && String.valueOf(world).equals(host.get(Variable.SLURM_NNODES))
                && String.valueOf(world).equals(host.get(Variable.SLURM_NTASKS))) {
            try {
                List<String> names = SlurmHostList.expand(slurm, "SLURM_JOB_NODELIST");
                return names.size() == world ? Optional.of(names) : Optional.empty();
            } catch (NcclbenchException e) {
                return Optional.empty(); // a list we cannot read names nobody; the ranks are still named by number
            }
        }
        return Optional.empty();
    }
}
