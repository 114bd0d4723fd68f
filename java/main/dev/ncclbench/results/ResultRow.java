package dev.ncclbench.results;

/**
 * One line of the table: one collective at one size.
 *
 * @param sizeBytes the "size" column: max(send, receive) bytes
 * @param count     the "count" column: the count passed to the call
 * @param type      nccl-tests' type name
 * @param redop     "none" for collectives without a reduction
 * @param root      -1 for collectives without a root
 * @param samplesOutOfPlace per-iteration statistics, or null when none were kept
 * @param verdict   the path verdict for this size, or null before diagnosis
 * @param cycle     which repeat of the sweep (-N) measured it, from 0
 * @param algorithm what the backend ran, as NCCL names its algo ("ring", "rd", ...); null when it cannot say
 */
public record ResultRow(String collective, long sizeBytes, long count, String type, String redop, int root,
                        Measurement outOfPlace, Measurement inPlace,
                        SampleStats samplesOutOfPlace, SampleStats samplesInPlace,
                        RouteVerdict verdict, int cycle, String algorithm) {

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

    public ResultRow withVerdict(RouteVerdict v) {
        return new ResultRow(collective, sizeBytes, count, type, redop, root, outOfPlace, inPlace,
                samplesOutOfPlace, samplesInPlace, v, cycle, algorithm);
    }
}
