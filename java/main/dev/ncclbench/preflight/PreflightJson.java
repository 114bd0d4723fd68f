package dev.ncclbench.preflight;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.GateJson;
import dev.ncclbench.output.Json;

import java.util.List;

/**
 * The preflight as JSON: the verdict, every reason, doctor's findings, the sweep's exit and the gate's decision. The
 * file is {@link Document}, built from {@link PreflightReport}; a step that did not run is null.
 */
public final class PreflightJson {
    public static final String KIND = "ncclbench.preflight";
    /** 2: kind "ncclbench.preflight" (was "ncclbench-preflight"); a finding's "rule" is "id", with reference. */
    public static final int SCHEMA_VERSION = 2;

    private PreflightJson() {
    }

    @JsonPropertyOrder({"kind", "schema_version", "verdict", "exit_code", "reason", "line", "reasons", "doctor", "sweep",
            "gate"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, String verdict, int exitCode, String reason, String line,
                           List<Reason> reasons, Doctor doctor, Sweep sweep, GateJson.Document gate) {
    }

    /** One reason for the verdict. */
    @JsonPropertyOrder({"verdict", "exit_code", "text"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Reason(String verdict, int exitCode, String text) {
    }

    /** Doctor's step: the host it looked at, the rules ignored, its findings. */
    @JsonPropertyOrder({"host", "ignored", "findings"})
    public record Doctor(String host, List<String> ignored, List<Finding> findings) {
    }

    /** The sweep's step: how it exited and its last line. */
    @JsonPropertyOrder({"exit_code", "last_line"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Sweep(int exitCode, String lastLine) {
    }

    public static Document document(PreflightReport r) {
        return new Document(KIND, SCHEMA_VERSION, r.verdict().word(), r.verdict().exitCode().code, r.verdict().reason(),
                r.verdict().line(), r.verdict().reasons().stream()
                .map(x -> new Reason(x.word(), x.exitCode().code, x.text())).toList(),
                r.doctor() == null ? null : new Doctor(r.host(), r.ignored(), r.doctor()),
                r.sweep() == null ? null : new Sweep(r.sweep().exitCode(), r.sweep().reason()),
                r.gate() == null ? null : GateJson.document(r.gate()));
    }

    public static String render(PreflightReport r) {
        return Json.prettyText(document(r)) + "\n";
    }
}
