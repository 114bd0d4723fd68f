package dev.ncclbench.doctor.compare;

import dev.ncclbench.output.Json;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;

import java.io.PrintWriter;
import java.util.List;

/** `ncclbench doctor --compare`'s output: one line per finding, or the JSON document. */
public final class CompareText {
    private CompareText() {
    }

    /** The hosts compared, one line per finding, then each node's rails side by side. */
    public static void write(PrintWriter out, List<HostSnapshot> hosts, List<Finding> findings) {
        out.println("doctor --compare: " + String.join(", ", hosts.stream().map(HostSnapshot::hostname).toList()));
        if (findings.isEmpty()) {
            out.println("  the nodes agree on versions, interfaces, NCCL settings and rails");
        }
        for (Finding f : findings) {
            out.printf("  %-7s %-24s %s%n", f.severity() == Severity.WARNING ? "WARN" : f.severity().name(), f.ruleId(), f.title());
        }
        List<HostRails> rails = rails(hosts);
        if (rails.stream().anyMatch(h -> !h.rails().isEmpty())) {
            out.println();
            out.println("rails (rate in Gb/s and link layer per rail; the verdict when it is not ok):");
            int width = rails.stream().mapToInt(h -> h.host().length()).max().orElse(4);
            for (HostRails h : rails) {
                out.printf("  %-" + width + "s  %s%n", h.host(), String.join(" | ", h.rails().stream().map(CompareText::cell).toList()));
            }
        }
    }

    private static String cell(RailRow r) {
        String s = r.rail() + ": " + (r.nic() == null ? "none" : !"up".equals(r.state()) ? "down"
                : r.rate().replaceAll(" Gb/sec.*", "") + " " + ("InfiniBand".equals(r.linkLayer()) ? "IB" : r.linkLayer()));
        return "ok".equals(r.verdict()) ? s : s + " (" + r.verdict() + ")";
    }

    /** Each node's rail table, row by row, under the names the findings use ("node-a#2" for a repeated hostname). */
    static List<HostRails> rails(List<HostSnapshot> hosts) {
        HostSet set = new HostSet(hosts);
        List<HostRails> out = new java.util.ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            RailTable t = RailTable.of(hosts.get(i));
            out.add(new HostRails(set.name(i), t.transport(), t.rails().stream().map(RailRow::of).toList()));
        }
        return out;
    }

    /** @param failed whether the findings reach the --fail-on level */
    public static String json(List<HostSnapshot> hosts, List<Finding> findings, boolean failed) {
        return Json.prettyText(new Document(KIND, SCHEMA_VERSION, hosts.stream().map(HostSnapshot::hostname).toList(),
                failed, findings, rails(hosts)));
    }

    /** One node's rails for the comparison. */
    @JsonPropertyOrder({"host", "transport", "rails"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record HostRails(String host, String transport, List<RailRow> rails) {
    }

    public static final String KIND = "ncclbench.doctor-compare";
    /** 2: kind and schema_version replace "schema": "ncclbench.doctor-compare/1". */
    public static final int SCHEMA_VERSION = 2;

    /**
     * `doctor --compare --json`: the hosts compared, whether the findings reach --fail-on, the findings, and each
     * node's rails side by side.
     */
    @JsonPropertyOrder({"kind", "schema_version", "hosts", "failed", "findings", "rails"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, List<String> hosts, boolean failed, List<Finding> findings,
                           List<HostRails> rails) {
    }
}
