package dev.ncclbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.output.NanAsNull;

import java.util.List;

/**
 * One placement (out-of-place or in-place) of one row, as the result file writes and reads it (docs/results-schema.md):
 * time in microseconds, bandwidths in GB/s, a number never measured null, wrong and wrong_ranks null when the
 * results were not checked (-c 0), the statistics and the samples kept beside them.
 *
 * @param timeUs     microseconds per call, combined across ranks by -a
 * @param algbw      GB/s (1e9 bytes per second)
 * @param busbw      GB/s
 * @param wrong      wrong elements summed over ranks (the #wrong column); -1 when not checked (-c 0: prints N/A)
 * @param wrongRanks ranks that saw at least one wrong element: the "Out of bounds values" footer adds these up
 * @param samples    the per-iteration statistics and kept samples, or null when none were kept
 */
@JsonPropertyOrder({"time_us", "algbw", "busbw", "wrong", "wrong_ranks", "samples", "samples_us"})
public record Measurement(@JsonProperty("time_us") @NanAsNull double timeUs,
                          @JsonProperty("algbw") @NanAsNull double algbw,
                          @JsonProperty("busbw") @NanAsNull double busbw,
                          long wrong, // written by wrongWritten(), whose explicit name wins over this accessor
                          @JsonIgnore int wrongRanks,
                          @JsonProperty("samples") SampleStats samples) {

    /** A measurement whose wrong elements, if any, were seen on one rank. */
    public Measurement(double timeUs, double algbw, double busbw, long wrong) {
        this(timeUs, algbw, busbw, wrong, wrong > 0 ? 1 : 0);
    }

    /** A measurement without its statistics (they are attached by {@link #withSamples}). */
    public Measurement(double timeUs, double algbw, double busbw, long wrong, int wrongRanks) {
        this(timeUs, algbw, busbw, wrong, wrongRanks, null);
    }

    /**
     * As the file holds it: unchecked is null there, -1 here; a file written before wrong_ranks existed gives the
     * ranks from wrong; the kept samples sit beside the statistics on the wire and inside them here.
     */
    @JsonCreator
    static Measurement read(@JsonProperty("time_us") @NanAsNull double timeUs,
                            @JsonProperty("algbw") @NanAsNull double algbw,
                            @JsonProperty("busbw") @NanAsNull double busbw,
                            @JsonProperty("wrong") Long wrong,
                            @JsonProperty("wrong_ranks") Integer wrongRanks,
                            @JsonProperty("samples") SampleStats samples,
                            @JsonProperty("samples_us") List<Double> samplesUs) {
        long w = wrong == null ? -1 : wrong;
        Measurement m = wrongRanks == null ? new Measurement(timeUs, algbw, busbw, w)
                : new Measurement(timeUs, algbw, busbw, w, wrongRanks);
        return m.withSamples(samples == null ? null : samples.withValues(samplesUs));
    }

    public Measurement withSamples(SampleStats s) {
        return new Measurement(timeUs, algbw, busbw, wrong, wrongRanks, s);
    }

    public boolean checked() {
        return wrong >= 0;
    }

    @JsonProperty("wrong")
    Long wrongWritten() {
        return checked() ? wrong : null;
    }

    @JsonProperty("wrong_ranks")
    Integer wrongRanksWritten() {
        return checked() ? wrongRanks : null;
    }

    /** The kept samples, or null when there are none. */
    @JsonProperty("samples_us")
    List<Double> samplesUs() {
        return samples == null || samples.valuesUs().isEmpty() ? null : samples.valuesUs();
    }
}
