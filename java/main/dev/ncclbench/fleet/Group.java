package dev.ncclbench.fleet;

import java.util.List;

/**
 * Ranks that run one short all_reduce together on their own connections, and why.
 *
 * @param members ranks (nodes), ascending
 * @param purpose what the result is evidence for
 * @param subject the rank or link a targeted check is about, for the narrative ("" for surveys)
 */
public record Group(List<Integer> members, Purpose purpose, String subject) {
    public Group {
        if (members.size() == 2) { // a survey at 1024 nodes builds 75k pairs a round: no streams for two
            int a = members.get(0);
            int b = members.get(1);
            members = a < b ? List.of(a, b) : List.of(b, a);
        } else {
            members = members.stream().sorted().toList();
        }
        if (members.size() < 2 || members.get(0).equals(members.get(1))
                || members.size() > 2 && members.stream().distinct().count() != members.size()) {
            throw new IllegalArgumentException("a group needs two or more distinct ranks: " + members);
        }
    }

    public static Group pair(int a, int b, Purpose purpose, String subject) {
        return new Group(List.of(a, b), purpose, subject);
    }

    public int size() {
        return members.size();
    }

    public boolean isPair() {
        return members.size() == 2;
    }

    public boolean contains(int rank) {
        return members.contains(rank);
    }

    /** For a pair: the member that is not {@code rank}. */
    public int other(int rank) {
        return members.get(0) == rank ? members.get(1) : members.get(0);
    }
}
