package dev.ncclbench.results;

/**
 * One placement (out-of-place or in-place) of one row.
 *
 * @param timeUs microseconds per call, combined across ranks by -a
 * @param algbw  GB/s (1e9 bytes per second)
 * @param busbw  GB/s
 * @param wrong  (rank x row) pairs that saw wrong elements; -1 when not checked (-c 0: prints N/A)
 */
public record Measurement(double timeUs, double algbw, double busbw, long wrong) {
    public boolean checked() {
        return wrong >= 0;
    }
}
