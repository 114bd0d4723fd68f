package dev.ncclbench.baseline;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.spec.Sizes;

import java.util.Comparator;

/**
 * One line of the table and one placement, up to repeats: what a baseline keeps samples for and the gate compares.
 * Each placement is judged on its own: out of place is nccl-tests' headline, and in place on one rank moves no data
 * (host time only), so pooling the two would judge a mixture and widen the noise band.
 */
@JsonPropertyOrder({"collective", "size", "type", "redop", "root", "placement"})
public record SizeKey(String collective, long size, String type, String redop, int root, @JsonIgnore boolean inPlace) {

    public static final Comparator<SizeKey> ORDER = Comparator.comparing(SizeKey::collective)
            .thenComparingLong(SizeKey::size).thenComparing(SizeKey::type).thenComparing(SizeKey::redop)
            .thenComparingInt(SizeKey::root).thenComparing(SizeKey::inPlace);

    /** An out-of-place line (fleet measures only those). */
    public SizeKey(String collective, long size, String type, String redop, int root) {
        this(collective, size, type, redop, root, false);
    }

    /** "all_reduce 1 MiB", with the root when there is one and " in-place" for the in-place placement. */
    public String label() {
        return collective + " " + Sizes.human(size) + (root >= 0 ? " root " + root : "") + (inPlace ? " in-place" : "");
    }

    /** "out-of-place" or "in-place", as the table's headers say (and the gate's JSON). */
    @JsonProperty("placement")
    public String placement() {
        return inPlace ? "in-place" : "out-of-place";
    }

    /** The same line, the other placement. */
    public SizeKey withInPlace(boolean in) {
        return new SizeKey(collective, size, type, redop, root, in);
    }
}
