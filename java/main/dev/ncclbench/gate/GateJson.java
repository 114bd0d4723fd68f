package dev.ncclbench.gate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.choices.Comparison;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.output.Json;

import java.util.List;

/**
 * The gate's decision as JSON (docs/gate.md): verdict, exit code, per size the figures and the statistics. The file
 * is {@link Document}, built from {@link GateReport}: the report keeps what was decided, the document adds what a
 * reader of the file needs without our code (the verdict and its line, the size key spelt out).
 */
public final class GateJson {
    public static final String KIND = "ncclbench.gate";
    /** 2: kind "ncclbench.gate" (was "ncclbench-gate"); a curve finding's "rule" is "id", with remedy and reference. */
    public static final int SCHEMA_VERSION = 2;

    private GateJson() {
    }

    /** The whole file: what it is, the verdict, the run, the baseline it was held to, then the details. */
    @JsonPropertyOrder({"kind", "schema_version", "outcome", "run", "held_to", "options", "timestamp", "changes",
            "nccl_choices", "sizes", "curve"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, @JsonUnwrapped Outcome outcome,
                           @JsonProperty("run") String runFile, @JsonUnwrapped HeldTo heldTo, String options,
                           long timestamp, List<Fingerprint.Change> changes,
                           // what NCCL decided differently from the baseline's runs, whatever the verdict
                           @JsonInclude(JsonInclude.Include.NON_NULL) Comparison ncclChoices,
                           List<SizeResult> sizes, List<Finding> curve) {
    }

    /** The verdict, its exit code and its one line. */
    @JsonPropertyOrder({"verdict", "exit_code", "summary"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Outcome(String verdict, int exitCode, String summary) {
    }

    /**
     * The baseline the run was held to and how the run's fingerprint matched it.
     *
     * @param noBaseline where the gate looked for a baseline and found none (verdict NO_BASELINE); else null
     */
    @JsonPropertyOrder({"baseline", "baseline_file", "baseline_runs", "exact_fingerprint", "fingerprint_id",
            "fingerprint", "no_baseline"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record HeldTo(@JsonProperty("baseline") String baselineName, String baselineFile, int baselineRuns,
                         @JsonProperty("exact_fingerprint") boolean exactMatch, String fingerprintId,
                         Fingerprint fingerprint, @JsonInclude(JsonInclude.Include.NON_NULL) NoBaseline noBaseline) {
    }

    public static Document document(GateReport r) {
        return new Document(KIND, SCHEMA_VERSION, new Outcome(r.verdict().name(), r.exitCode().code, r.verdictLine()),
                r.runFile(), new HeldTo(r.baselineName(), r.baselineFile(), r.baselineRuns(), r.exactMatch(),
                r.runFingerprint().id(), r.runFingerprint(), r.noBaseline()), r.options(), r.timestamp(), r.changes(),
                r.ncclChoices(), r.sizes(), r.curve());
    }

    public static String render(GateReport r) {
        return Json.prettyText(document(r)) + "\n";
    }
}
