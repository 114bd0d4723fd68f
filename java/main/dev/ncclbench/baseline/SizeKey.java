package dev.ncclbench.baseline;

import dev.ncclbench.spec.Sizes;

import java.util.Comparator;

/** One line of the table, up to repeats: what a baseline keeps samples for and the gate compares. */
public record SizeKey(String collective, long size, String type, String redop, int root) {

    public static final Comparator<SizeKey> ORDER = Comparator.comparing(SizeKey::collective)
            .thenComparingLong(SizeKey::size).thenComparing(SizeKey::type).thenComparing(SizeKey::redop)
            .thenComparingInt(SizeKey::root);

    /** "all_reduce 1 MiB", with the root when there is one. */
    public String label() {
        return collective + " " + Sizes.human(size) + (root >= 0 ? " root " + root : "");
    }
}
