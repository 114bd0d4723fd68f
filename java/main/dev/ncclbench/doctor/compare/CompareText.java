package dev.ncclbench.doctor.compare;

import dev.ncclbench.output.Json;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;

import java.io.PrintWriter;
import java.util.List;

/** `ncclbench doctor --compare`'s output: one line per finding, or the JSON document. */
public final class CompareText {
    private CompareText() {
    }

    /** The hosts compared and one line per finding. */
    public static void write(PrintWriter out, List<HostSnapshot> hosts, List<Finding> findings) {
        out.println("doctor --compare: " + String.join(", ", hosts.stream().map(HostSnapshot::hostname).toList()));
        if (findings.isEmpty()) {
            out.println("  the nodes agree on versions, interfaces and NCCL settings");
        }
        for (Finding f : findings) {
            out.printf("  %-7s %-24s %s%n", f.severity() == Severity.WARNING ? "WARN" : f.severity().name(), f.ruleId(), f.title());
        }
    }

    /** @param failed whether the findings reach the --fail-on level */
    public static String json(List<HostSnapshot> hosts, List<Finding> findings, boolean failed) {
        return Json.prettyText(new Document(KIND, SCHEMA_VERSION, hosts.stream().map(HostSnapshot::hostname).toList(),
                failed, findings));
    }

    public static final String KIND = "ncclbench.doctor-compare";
    /** 2: kind and schema_version replace "schema": "ncclbench.doctor-compare/1". */
    public static final int SCHEMA_VERSION = 2;

    /** `doctor --compare --json`: the hosts compared, whether the findings reach --fail-on, the findings. */
    @JsonPropertyOrder({"kind", "schema_version", "hosts", "failed", "findings"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, List<String> hosts, boolean failed, List<Finding> findings) {
    }
}
