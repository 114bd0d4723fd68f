package dev.ncclbench.launch;

import dev.ncclbench.NcclbenchException;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's host-list syntax, as in SLURM_JOB_NODELIST: a comma list of names, each with any number of bracket groups
 * of numbers and ranges ({@code node[0-3,7]}, {@code a[01-04]b}, {@code rack[1-2]-n[01-02]}); a range keeps the
 * zero padding of its first number. Read here rather than by calling {@code scontrol show hostnames}, which is not
 * on every compute node's PATH and costs a round trip to slurmctld per process.
 */
public final class SlurmHostList {
    /** More names than any cluster has: a typo such as {@code n[0-99999999]} must not fill the heap. */
    static final int MAX_HOSTS = 1_000_000;

    private SlurmHostList() {
    }

    /** The first host of the list, in Slurm's order (rank 0's node under the default block distribution). */
    public static String first(String list, String what) {
        List<String> items = items(list, what);
        return expandItem(items.get(0), what, MAX_HOSTS, true).get(0);
    }

    /** Every host of the list, in order (duplicates kept, as Slurm keeps them). */
    public static List<String> expand(String list, String what) {
        List<String> out = new ArrayList<>();
        for (String item : items(list, what)) {
            out.addAll(expandItem(item, what, MAX_HOSTS - out.size(), false));
        }
        return out;
    }

    /** The top-level items: commas inside brackets separate ranges, not hosts. */
    private static List<String> items(String list, String what) {
        if (list == null || list.isBlank()) {
            throw bad(list, what, "it is empty");
        }
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        String s = list.trim();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                if (++depth > 1) {
                    throw bad(list, what, "a bracket inside a bracket");
                }
            } else if (c == ']') {
                if (--depth < 0) {
                    throw bad(list, what, "a ']' without its '['");
                }
            } else if (c == ',' && depth == 0) {
                items.add(s.substring(start, i));
                start = i + 1;
            } else if (Character.isWhitespace(c)) {
                throw bad(list, what, "a space inside it");
            }
        }
        if (depth != 0) {
            throw bad(list, what, "a '[' without its ']'");
        }
        items.add(s.substring(start));
        for (String item : items) {
            if (item.isEmpty()) {
                throw bad(list, what, "an empty name between commas");
            }
        }
        return items;
    }

    /** One item with its bracket groups, the cartesian product in Slurm's order (the last group varies fastest). */
    private static List<String> expandItem(String item, String what, int limit, boolean firstOnly) {
        List<String> out = new ArrayList<>(List.of(""));
        int i = 0;
        while (i < item.length()) {
            int open = item.indexOf('[', i);
            String literal = item.substring(i, open < 0 ? item.length() : open);
            out.replaceAll(prefix -> prefix + literal);
            if (open < 0) {
                break;
            }
            int close = item.indexOf(']', open);
            List<String> numbers = ranges(item.substring(open + 1, close), item, what, limit);
            if (firstOnly) {
                numbers = numbers.subList(0, 1);
            }
            List<String> next = new ArrayList<>();
            for (String prefix : out) {
                for (String n : numbers) {
                    if (next.size() >= limit) {
                        throw bad(item, what, "more than " + MAX_HOSTS + " hosts");
                    }
                    next.add(prefix + n);
                }
            }
            out = next;
            i = close + 1;
        }
        if (out.get(0).isEmpty()) {
            throw bad(item, what, "an empty name");
        }
        return out;
    }

    /** "0-3,7" or "01-04": the numbers as text, each range with the width of its first number. */
    private static List<String> ranges(String inside, String item, String what, int limit) {
        List<String> out = new ArrayList<>();
        for (String part : inside.split(",", -1)) {
            int dash = part.indexOf('-');
            String lo = dash < 0 ? part : part.substring(0, dash);
            String hi = dash < 0 ? part : part.substring(dash + 1);
            if (!lo.matches("[0-9]{1,18}") || !hi.matches("[0-9]{1,18}")) {
                throw bad(item, what, "'[" + inside + "]' is not a list of numbers and ranges (as [0-3,7])");
            }
            long from = Long.parseLong(lo);
            long to = Long.parseLong(hi);
            if (to < from) {
                throw bad(item, what, "the range " + part + " runs backwards");
            }
            if (to - from >= limit - out.size()) {
                throw bad(item, what, "more than " + MAX_HOSTS + " hosts");
            }
            for (long n = from; n <= to; n++) {
                out.add(String.format("%0" + lo.length() + "d", n));
            }
        }
        return out;
    }

    private static NcclbenchException bad(String list, String what, String why) {
        return NcclbenchException.usage(what + "=" + list + " is not a Slurm host list: " + why);
    }
}
