package dev.ncclbench.results;

/**
 * One placement (out-of-place or in-place) of one row.
 *
 * @param timeUs     microseconds per call, combined across ranks by -a
 * @param algbw      GB/s (1e9 bytes per second)
 * @param busbw      GB/s
 * @param wrong      wrong elements summed over ranks (the #wrong column); -1 when not checked (-c 0: prints N/A)
 * @param wrongRanks ranks that saw at least one wrong element: the "Out of bounds values" footer adds these up
 */
public record Measurement(double timeUs, double algbw, double busbw, long wrong, int wrongRanks) {

    /** A measurement whose wrong elements, if any, were seen on one rank. */
    public Measurement(double timeUs, double algbw, double busbw, long wrong) {
        this(timeUs, algbw, busbw, wrong, wrong > 0 ? 1 : 0);
    }

    public boolean checked() {
        return wrong >= 0;
    }
}
