package dev.ncclbench.rendezvous;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One job, one set of flags: the store keeps the first rank's flags (the ones that change what a rank measures,
 * one "flag value" a line) and compares every other rank's with them. Two processes of one job started with
 * different flags would otherwise fail much later with a lost rank or a wrong result, far from the cause.
 * Holds one copy, whatever the job's size. The store uses it, and fleet's coordinator, whose nodes do not meet
 * in the store.
 */
public final class JobFlags {
    private int firstRank = -1;
    private Map<String, String> first;
    /** The first rank's text: the same text needs no parsing (8192 hellos in a row). */
    private String firstText;

    /** Null when {@code text} matches the job's flags (or is the first), else the sentence naming the difference. */
    public String present(int rank, String text) {
        if (text.equals(firstText)) {
            return null;
        }
        Map<String, String> mine = parse(text);
        if (first == null) {
            firstRank = rank;
            first = mine;
            firstText = text;
            return null;
        }
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, String> e : first.entrySet()) {
            String other = mine.get(e.getKey());
            if (!e.getValue().equals(other)) {
                differ.add(e.getKey());
            }
        }
        for (String k : mine.keySet()) {
            if (!first.containsKey(k)) {
                differ.add(k);
            }
        }
        if (differ.isEmpty()) {
            return null;
        }
        String k = differ.get(0);
        return "rank " + rank + " was started with other flags than rank " + firstRank + ": " + k + " "
                + shown(mine.get(k)) + " on rank " + rank + ", " + k + " " + shown(first.get(k)) + " on rank " + firstRank
                + (differ.size() > 1 ? " (also " + String.join(", ", differ.subList(1, Math.min(differ.size(), 6)))
                + (differ.size() > 6 ? ", ..." : "") + ")" : "")
                + "; start every process of one job with the same flags";
    }

    private static String shown(String v) {
        return v == null ? "(not given)" : v;
    }

    private static Map<String, String> parse(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int sp = line.indexOf(' ');
            out.put(sp < 0 ? line : line.substring(0, sp), sp < 0 ? "" : line.substring(sp + 1));
        }
        return out;
    }
}
