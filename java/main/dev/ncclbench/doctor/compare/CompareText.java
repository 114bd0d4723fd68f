package dev.ncclbench.doctor.compare;

import dev.ncclbench.output.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    public static String json(List<HostSnapshot> hosts, List<Finding> findings, boolean failed)
            throws JsonProcessingException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("kind", "ncclbench.doctor-compare");
        // 2: kind and schema_version replace "schema": "ncclbench.doctor-compare/1"
        doc.put("schema_version", 2);
        doc.put("hosts", hosts.stream().map(HostSnapshot::hostname).toList());
        doc.put("failed", failed);
        doc.put("findings", findings);
        return Json.pretty().writeValueAsString(doc);
    }
}
