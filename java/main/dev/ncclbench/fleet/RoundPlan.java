package dev.ncclbench.fleet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One round: groups that run at the same time. Disjoint except in an every-pair-at-once survey. */
public record RoundPlan(int round, List<Group> groups) {
    public RoundPlan {
        groups = List.copyOf(groups);
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
