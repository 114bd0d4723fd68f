package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Rounds for groups larger than two, over nodes that are good in pairs: first groups of that size, then, for
 * each slow group, half its suspects (members not yet proven fine at that size) with nodes proven fine at that
 * size, both halves at once when there are enough of those, until one suspect is left: a node that is only
 * slow in larger groups (its NIC or PCIe path gives way under several flows).
 */
final class GroupPlanner {
    private GroupPlanner() {
    }

    static List<Group> plan(Evidence e, Verdicts v, List<Integer> alive, int k, Random rng) {
        List<Integer> good = alive.stream().filter(r -> v.node(r).status() == NodeVerdict.Status.GOOD).toList();
        boolean anyAtK = e.largerGroups().stream().anyMatch(m -> m.group().size() == k && e.usable(m));
        Set<Integer> busy = new HashSet<>();
        List<Group> groups = new ArrayList<>();
        if (!anyAtK) {
            List<Integer> order = new ArrayList<>(good);
            Collections.shuffle(order, rng);
            for (int i = 0; i + k <= order.size(); i += k) {
                groups.add(new Group(order.subList(i, i + k), Purpose.GROUP_SURVEY, ""));
            }
            return groups;
        }
        List<Integer> fillers = new ArrayList<>(alive.stream().filter(r -> e.clearedAt(r, k)).toList());
        Collections.shuffle(fillers, rng);
        for (Set<Integer> suspects : minimalSuspectSets(e, k)) {
            if (suspects.size() < 2 || suspects.stream().anyMatch(busy::contains)) {
                continue;
            }
            List<Integer> s = new ArrayList<>(suspects);
            List<Integer> first = s.subList(0, (s.size() + 1) / 2);
            List<Integer> second = s.subList((s.size() + 1) / 2, s.size());
            addWithFillers(first, fillers, busy, groups, k);
            addWithFillers(second, fillers, busy, groups, k);
        }
        for (int r : good) {
            if (!busy.contains(r) && e.groupsOf(r, k).isEmpty()) {
                addWithFillers(List.of(r), fillers, busy, groups, k);
            }
        }
        return groups;
    }

    private static void addWithFillers(List<Integer> suspects, List<Integer> fillers, Set<Integer> busy, List<Group> groups, int k) {
        List<Integer> members = new ArrayList<>(suspects);
        for (int f : fillers) {
            if (members.size() == k) {
                break;
            }
            if (!busy.contains(f) && !members.contains(f)) {
                members.add(f);
            }
        }
        if (members.size() == k && members.stream().noneMatch(busy::contains)) {
            busy.addAll(members);
            groups.add(new Group(members, Purpose.BISECT, suspects.toString()));
        }
    }

    /** Suspect sets of slow groups of size k, leaving out any that holds a smaller one (already narrowed). */
    static List<Set<Integer>> minimalSuspectSets(Evidence e, int k) {
        List<Set<Integer>> sets = new ArrayList<>();
        for (GroupMeasurement m : e.largerGroups()) {
            if (m.group().size() != k || !e.usable(m) || !e.slow(m)) {
                continue;
            }
            Set<Integer> s = new TreeSet<>();
            for (int r : m.group().members()) {
                if (e.reachable(r) && !e.clearedAt(r, k)) {
                    s.add(r);
                }
            }
            if (!s.isEmpty() && !sets.contains(s)) {
                sets.add(s);
            }
        }
        List<Set<Integer>> minimal = new ArrayList<>();
        for (Set<Integer> s : sets) {
            boolean holdsSmaller = sets.stream().anyMatch(o -> o != s && s.containsAll(o) && o.size() < s.size());
            if (!holdsSmaller) {
                minimal.add(s);
            }
        }
        return minimal;
    }
}
