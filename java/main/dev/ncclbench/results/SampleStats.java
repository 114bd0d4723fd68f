package dev.ncclbench.results;

/** Statistics of the per-iteration samples of one placement, in microseconds. */
public record SampleStats(int count, double minUs, double medianUs, double p99Us, double maxUs, double meanUs,
                          double cvPercent) {
}
