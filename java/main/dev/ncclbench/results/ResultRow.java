package dev.ncclbench.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.Objects;

/**
 * One line of the table: one collective at one size, as the sweep measures it and the result file writes and reads
 * it (a "rows" entry).
 *
 * @param sizeBytes the "size" column: max(send, receive) bytes
 * @param count     the "count" column: the count passed to the call
 * @param type      nccl-tests' type name
 * @param redop     "none" for collectives without a reduction
 * @param root      -1 for collectives without a root
 * @param cycle     which repeat of the sweep (-N) measured it, from 0
 * @param algorithm what the backend ran, as NCCL names its algo ("ring", "rd", ...); null when it cannot say
 * @param outOfPlace the out-of-place placement with its statistics
 * @param inPlace   the in-place placement with its statistics
 * @param verdict   the path verdict for this size, or null before diagnosis
 */
@JsonPropertyOrder({"collective", "size", "count", "type", "redop", "root", "cycle", "algorithm", "out_of_place",
        "in_place", "verdict"})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ResultRow(String collective, @JsonProperty("size") long sizeBytes, long count, String type,
                        String redop, int root, int cycle, String algorithm, Measurement outOfPlace,
                        Measurement inPlace, RouteVerdict verdict) {

    /** A row of measurements and their statistics (null: none kept), as the sweep gives them. */
    public ResultRow(String collective, long sizeBytes, long count, String type, String redop, int root,
                     Measurement outOfPlace, Measurement inPlace, SampleStats samplesOutOfPlace,
                     SampleStats samplesInPlace, RouteVerdict verdict, int cycle, String algorithm) {
        this(collective, sizeBytes, count, type, redop, root, cycle, algorithm, with(outOfPlace, samplesOutOfPlace),
                with(inPlace, samplesInPlace), verdict);
    }

    public ResultRow(String collective, long sizeBytes, long count, String type, String redop, int root,
                     Measurement outOfPlace, Measurement inPlace, SampleStats samplesOutOfPlace,
                     SampleStats samplesInPlace, RouteVerdict verdict, int cycle) {
        this(collective, sizeBytes, count, type, redop, root, outOfPlace, inPlace, samplesOutOfPlace, samplesInPlace,
                verdict, cycle, null);
    }

    /** A row of the first (or only) cycle. */
    public ResultRow(String collective, long sizeBytes, long count, String type, String redop, int root,
                     Measurement outOfPlace, Measurement inPlace, SampleStats samplesOutOfPlace,
                     SampleStats samplesInPlace, RouteVerdict verdict) {
        this(collective, sizeBytes, count, type, redop, root, outOfPlace, inPlace, samplesOutOfPlace, samplesInPlace,
                verdict, 0);
    }

    private static Measurement with(Measurement m, SampleStats s) {
        return m == null || s == null ? m : m.withSamples(s);
    }

    /** The out-of-place statistics, or null when none were kept. */
    public SampleStats samplesOutOfPlace() {
        return outOfPlace == null ? null : outOfPlace.samples();
    }

    /** The in-place statistics, or null when none were kept. */
    public SampleStats samplesInPlace() {
        return inPlace == null ? null : inPlace.samples();
    }

    public ResultRow withVerdict(RouteVerdict v) {
        return new ResultRow(collective, sizeBytes, count, type, redop, root, cycle, algorithm, outOfPlace, inPlace, v);
    }

    /** Whether a verdict found for {@code other} applies to this row: the same table line, up to repeats. */
    boolean sameLine(ResultRow other) {
        return collective.equals(other.collective) && sizeBytes == other.sizeBytes && Objects.equals(type, other.type)
                && Objects.equals(redop, other.redop) && root == other.root;
    }
}
