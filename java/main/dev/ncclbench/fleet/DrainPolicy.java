package dev.ncclbench.fleet;

import dev.ncclbench.rendezvous.JobSecret;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which of the nodes a search found bad it may name to drain. Only when only the job's own processes could join it:
 * without a secret any process that knows the job id could join as a node and report whatever figures it likes, and the
 * drain list would take healthy nodes out of service; so an unauthenticated search writes no drain list unless the
 * operator says --allow-unauthenticated. And only one node of this job a line: a name nobody knows ("rank 7"), one that
 * is not a single node's name, or one outside the launcher's node list (when it is known) is withheld, with why: what a
 * node says of itself names no other node. The verdicts are printed either way.
 *
 * @param authenticated        the rendezvous was authenticated (JobSecret)
 * @param allowUnauthenticated --allow-unauthenticated
 * @param nodeList             the job's nodes as its launcher names them (--node-list, SLURM_JOB_NODELIST), if known
 */
record DrainPolicy(boolean authenticated, boolean allowUnauthenticated, Optional<Set<String>> nodeList) {
    /** An authenticated search with no node list to hold the names to. */
    static DrainPolicy trusting() {
        return new DrainPolicy(true, false, Optional.empty());
    }

    /** Whether the drain list file is written. */
    boolean writes() {
        return authenticated || allowUnauthenticated;
    }

    /** The header's line, or null when the search was authenticated. */
    String headerLine() {
        if (authenticated) {
            return null;
        }
        return JobSecret.NOT_AUTHENTICATED + (allowUnauthenticated ? " (drain list written: --allow-unauthenticated)"
                : "; no drain list is written on an unauthenticated search unless --allow-unauthenticated is given");
    }

    /**
     * What the search names to drain: {@code names}, what the drain list file holds (empty when it is not written),
     * {@code withheld}, each node the search found bad and does not name, with why, and {@code rails}, each named node's
     * slow or down rails (joined with '; '), for the one who repairs it.
     */
    record Drain(boolean written, List<String> names, Map<String, String> withheld, Map<String, String> rails) {
        /**
         * Why nodes were withheld, one clause a reason ("gpu7, gpu9: why"); when none was, why the list was not written,
         * or null when it was.
         */
        String because() {
            if (withheld.isEmpty()) {
                return written ? null : JobSecret.NOT_AUTHENTICATED;
            }
            Map<String, List<String>> byWhy = new LinkedHashMap<>();
            withheld.forEach((name, why) -> byWhy.computeIfAbsent(why, w -> new ArrayList<>()).add(name));
            return byWhy.entrySet().stream().map(e -> String.join(", ", e.getValue()) + ": " + e.getKey())
                    .collect(Collectors.joining("; "));
        }

        /** The printed lines: what the file holds, then what was not drained and why; the same as the file and the JSON. */
        List<String> lines() {
            List<String> out = new ArrayList<>();
            out.add("drain: " + (names.isEmpty() ? "none" : String.join(" ", names)));
            rails.forEach((name, why) -> out.add("  " + name + ": " + why));
            if (!withheld.isEmpty()) {
                out.add("not drained: " + because());
            }
            return out;
        }
    }

    /** The drain list of {@code doc} under this policy. */
    Drain decide(FleetDocument doc) {
        List<String> names = new ArrayList<>();
        Map<String, String> withheld = new LinkedHashMap<>();
        Map<String, String> rails = new LinkedHashMap<>();
        for (int rank : doc.badRanks()) {
            String host = doc.hosts().get(rank);
            String name = FleetDocument.nodeName(host);
            String why = FleetRun.unnamed(rank).equals(host) ? "no node name is known (give --node-list)"
                    : !writes() ? JobSecret.NOT_AUTHENTICATED
                    : !NodeList.isNodeName(name) ? "not one node's name (letters, digits, '.', '-' and '_')"
                    : nodeList.isPresent() && !nodeList.get().contains(name)
                    ? "not a node of this job (--node-list, or SLURM_JOB_NODELIST)" : null;
            if (why != null) {
                boolean unnamed = FleetRun.unnamed(rank).equals(host);
                withheld.putIfAbsent(unnamed || NodeList.isNodeName(name) ? name : NodeList.quoted(name), why);
            } else if (!names.contains(name)) {
                names.add(name);
            }
            List<RailVerdict> bad = doc.badRails(rank);
            if (why == null && !bad.isEmpty()) { // the rail is the finding: the line says which, for the one who repairs it
                rails.merge(name, bad.stream().map(RailVerdict::reason).collect(Collectors.joining("; ")), (a, b) -> a + "; " + b);
            }
        }
        return new Drain(writes(), List.copyOf(names), withheld, rails);
    }
}
