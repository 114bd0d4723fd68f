package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The launcher's node names by rank, so that a node that never joined is named as the scheduler knows it:
 * --node-list, else Slurm's SLURM_JOB_NODELIST when the job runs one task per node (rank r on the r-th node of
 * the list, Slurm's block distribution). Slurm's host list syntax: {@code gpu[01-04,07],login1}.
 */
final class NodeList {
    private NodeList() {
    }

    /** Names by rank, or empty when no list is known or it does not have one name per rank. */
    static Optional<List<String>> of(String flag, Map<String, String> env, int world) {
        if (flag != null) {
            List<String> names = expand(flag);
            if (names.size() != world) {
                throw NcclbenchException.usage("--node-list names " + names.size() + " node" + (names.size() == 1 ? "" : "s")
                        + " but the job has " + world + " processes: give one name per rank, in rank order");
            }
            return Optional.of(names);
        }
        String slurm = env.get("SLURM_JOB_NODELIST");
        if (slurm != null && String.valueOf(world).equals(env.get("SLURM_NNODES"))
                && String.valueOf(world).equals(env.get("SLURM_NTASKS"))) {
            try {
                List<String> names = expand(slurm);
                return names.size() == world ? Optional.of(names) : Optional.empty();
            } catch (NcclbenchException e) {
                return Optional.empty(); // a list we cannot read names nobody; the ranks are still named by number
            }
        }
        return Optional.empty();
    }

    /** Expands a Slurm host list: commas outside brackets separate entries, brackets hold numbers and ranges. */
    static List<String> expand(String list) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String entry = list.substring(from, i).strip();
                if (!entry.isEmpty()) {
                    expandEntry(entry, out, list);
                }
                from = i + 1;
            }
        }
        return out;
    }

    private static void expandEntry(String entry, List<String> out, String whole) {
        int open = entry.indexOf('[');
        if (open < 0) {
            out.add(entry);
            return;
        }
        int close = entry.indexOf(']', open);
        if (close < 0) {
            throw NcclbenchException.usage("node list '" + whole + "': '" + entry + "' has no closing ]");
        }
        String prefix = entry.substring(0, open);
        List<String> rest = new ArrayList<>();
        String suffix = entry.substring(close + 1);
        if (suffix.isEmpty()) {
            rest.add("");
        } else {
            expandEntry(suffix, rest, whole);
        }
        for (String part : entry.substring(open + 1, close).split(",")) {
            String[] lohi = part.strip().split("-", 2);
            try {
                long lo = Long.parseLong(lohi[0]);
                long hi = lohi.length == 2 ? Long.parseLong(lohi[1]) : lo;
                if (hi < lo || hi - lo > 100_000) {
                    throw new NumberFormatException();
                }
                int width = lohi[0].length();
                for (long v = lo; v <= hi; v++) {
                    String num = String.format("%0" + width + "d", v);
                    for (String r : rest) {
                        out.add(prefix + num + r);
                    }
                }
            } catch (NumberFormatException e) {
                throw NcclbenchException.usage("node list '" + whole + "': '" + part.strip() + "' is not a number or a range");
            }
        }
    }
}
