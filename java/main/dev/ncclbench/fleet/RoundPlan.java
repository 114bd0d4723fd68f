package dev.ncclbench.fleet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One round: groups that run at the same time. Disjoint except in an every-pair-at-once survey and a rail round (a node
 * in one group per rail, each on its own rail).
 *
 * @param rails per group in plan order, the rail its traffic is held to; null for the node rounds
 */
public record RoundPlan(int round, List<Group> groups, List<Integer> rails) {
    public RoundPlan {
        groups = List.copyOf(groups);
        if (rails != null && rails.size() != groups.size()) {
            throw new IllegalArgumentException("a rail for each group: " + rails.size() + " for " + groups.size());
        }
        rails = rails == null ? null : List.copyOf(rails);
    }

    /** A node round: every group on the nodes' own interfaces. */
    public RoundPlan(int round, List<Group> groups) {
        this(round, groups, null);
    }

    /** The rail group {@code i} is held to, or null. */
    Integer rail(int i) {
        return rails == null ? null : rails.get(i);
    }

    /** How many groups of this round each rank is in. */
    public Map<Integer, Integer> loads() {
        Map<Integer, Integer> load = new HashMap<>();
        for (Group g : groups) {
            for (int r : g.members()) {
                load.merge(r, 1, Integer::sum);
            }
        }
        return load;
    }

    /** The load a group ran under: the most groups any of its members was in this round. */
    public int load(Group g) {
        Map<Integer, Integer> load = loads();
        return g.members().stream().mapToInt(load::get).max().orElse(1);
    }
}
