package dev.ncclbench.spec;

import dev.ncclbench.NcclbenchException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * nccl-tests' NCCL_TESTS_SPLIT_MASK and NCCL_TESTS_SPLIT (src/common.cu, run()): a colour for each process, read as
 * nccl-tests reads them; the ranks of one colour form one communicator, numbered in world order (MPI_Comm_split with
 * the world rank as key), and the groups run side by side. The mask wins when both are set, as there.
 *
 * <p>Where nccl-tests would quietly make one group of every rank (a word it does not know, no number after it) or
 * stop on a division by zero, this refuses in one line instead: a script with such a value measures nothing it meant.
 *
 * @param variable the variable that decides, NCCL_TESTS_SPLIT_MASK or NCCL_TESTS_SPLIT
 * @param value    its value as set
 */
public record NcclTestsSplit(String variable, String value, Op op, long operand) {
    public static final String MASK = "NCCL_TESTS_SPLIT_MASK";
    public static final String SPLIT = "NCCL_TESTS_SPLIT";

    /** How the colour comes from the process's world rank. */
    public enum Op { AND, OR, MOD, DIV }

    /**
     * The split the environment asks for, or null when neither variable is set.
     *
     * @param mask  NCCL_TESTS_SPLIT_MASK's value, or null when unset
     * @param split NCCL_TESTS_SPLIT's value, or null when unset
     */
    public static NcclTestsSplit of(String mask, String split) {
        if (mask != null) {
            return parse(MASK, mask);
        }
        return split == null ? null : parse(SPLIT, split);
    }

    /** "NCCL_TESTS_SPLIT=MOD 2", as the spec records it; null stays null. */
    public static NcclTestsSplit fromAssignment(String assignment) {
        if (assignment == null) {
            return null;
        }
        int eq = assignment.indexOf('=');
        return parse(assignment.substring(0, eq), assignment.substring(eq + 1));
    }

    public static NcclTestsSplit parse(String variable, String value) {
        if (MASK.equals(variable)) {
            // strtoul(value, NULL, 16): an optional 0x, hex digits
            Long mask = CNumbers.strtoul(value, 16);
            if (mask == null) {
                throw refused(variable, value, "is not a hexadecimal mask (e.g. 0x1)");
            }
            return new NcclTestsSplit(variable, value, Op.AND, mask);
        }
        String[][] words = {{"AND", "&"}, {"OR", "|"}, {"MOD", "%"}, {"DIV", "/"}};
        for (int i = 0; i < words.length; i++) {
            for (String word : words[i]) {
                if (value.regionMatches(true, 0, word, 0, word.length())) {
                    Long n = parseInt(value.substring(word.length()));
                    if (n == null) {
                        throw refused(variable, value, "has no number after " + word);
                    }
                    Op op = Op.values()[i];
                    if ((op == Op.MOD || op == Op.DIV) && n == 0) {
                        throw refused(variable, value, "divides by zero (nccl-tests stops on it)");
                    }
                    return new NcclTestsSplit(variable, value, op, n);
                }
            }
        }
        throw refused(variable, value, "is not one of AND, OR, MOD, DIV (or &, |, %, /) followed by a number");
    }

    /** common.cu's parseInt: leading blanks, then 0b binary, or strtoul's base 0 (0x hex, 0 octal, decimal). */
    static Long parseInt(String s) {
        String t = s.stripLeading();
        if (t.isEmpty()) {
            return null;
        }
        if (t.regionMatches(true, 0, "0b", 0, 2)) {
            Long bits = CNumbers.strtoul(t.substring(2), 2);
            return bits == null ? 0L : bits; // nccl-tests reads a bare "0b" as 0 (its end pointer moved past "0b")
        }
        return CNumbers.strtoul(t, 0);
    }

    private static NcclbenchException refused(String variable, String value, String why) {
        return NcclbenchException.usage(variable + "=" + value + " " + why + ": nccl-tests would run every rank as one"
                + " group; set it as nccl-tests documents (e.g. NCCL_TESTS_SPLIT=\"MOD 2\", \"AND 0x1\", \"DIV 4\") or unset it");
    }

    /** The colour of the process with this world rank: the int nccl-tests computes. */
    public int colorOf(int proc) {
        int x = (int) operand; // nccl-tests keeps the number in an int (the mask's unsigned long ends as one too)
        return switch (op) {
            case AND -> proc & x;
            case OR -> proc | x;
            case MOD -> proc % x;
            case DIV -> proc / x;
        };
    }

    /** "NCCL_TESTS_SPLIT=MOD 2": what the spec records and the header prints. */
    public String assignment() {
        return variable + "=" + value;
    }

    /**
     * The groups of a job of {@code procs} processes, refused in one line when a colour is negative (MPI_Comm_split
     * refuses those too) or when the groups differ in size: every group runs the same loop of sizes and roots in
     * step with the others (the timings are combined over every rank, as nccl-tests combines them over
     * MPI_COMM_WORLD), and a group of another size has other sizes and roots.
     */
    public Groups groups(int procs) {
        int[] colors = new int[procs];
        Map<Integer, List<Integer>> members = new TreeMap<>();
        for (int p = 0; p < procs; p++) {
            colors[p] = colorOf(p);
            if (colors[p] < 0) {
                throw NcclbenchException.usage(assignment() + " gives rank " + p + " the colour " + colors[p]
                        + ": a colour must not be negative (MPI_Comm_split's rule, which nccl-tests uses)");
            }
            members.computeIfAbsent(colors[p], c -> new ArrayList<>()).add(p);
        }
        int size = members.get(colors[0]).size();
        for (Map.Entry<Integer, List<Integer>> e : members.entrySet()) {
            if (e.getValue().size() != size) {
                throw NcclbenchException.usage(assignment() + " makes groups of different sizes on " + procs + " ranks ("
                        + describe(members) + "): ncclbench runs the groups in step, which needs one size; choose a split"
                        + " that divides the ranks evenly");
            }
        }
        return new Groups(colors, members);
    }

    private static String describe(Map<Integer, List<Integer>> members) {
        List<String> parts = new ArrayList<>();
        members.forEach((c, m) -> parts.add("group " + c + ": " + m.size() + " rank" + (m.size() == 1 ? "" : "s")));
        return String.join(", ", parts);
    }

    /** Which group each process is in, and its rank and the size there. */
    public record Groups(int[] colors, Map<Integer, List<Integer>> members) {
        public int color(int proc) {
            return colors[proc];
        }

        /** The world ranks of this process's group, in world order. */
        public List<Integer> membersOf(int proc) {
            return members.get(colors[proc]);
        }

        public int rankIn(int proc) {
            return membersOf(proc).indexOf(proc);
        }

        public int size(int proc) {
            return membersOf(proc).size();
        }

        public int count() {
            return members.size();
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d groups of %d", members.size(), members.values().iterator().next().size());
        }
    }
}
