package dev.ncclbench.diagnosis;

import dev.ncclbench.output.Json;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.diagnosis.facts.NicLines;
import dev.ncclbench.diagnosis.facts.NicLoad;
import dev.ncclbench.diagnosis.facts.PairVerdict;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** `ncclbench explain`'s output: the text a person reads, and the whole structure as JSON. */
public final class ExplainText {
    public static final String KIND = "ncclbench.explain";
    /** 2: kind and schema_version replace "schema": "ncclbench.explain/1"; snake_case keys (summary.path and
     *  summary.health keep their names); findings as in Finding. */
    public static final int SCHEMA_VERSION = 2;
    private ExplainText() {
    }

    /** The summary, diagnosis and evidence as one JSON document. */
    public static String json(NcclLogEvidence e, Diagnosis d) {
        return Json.prettyText(new Document(KIND, SCHEMA_VERSION, ExplainSummary.of(e, d), d, e));
    }

    /** `explain --json`: the summary, the diagnosis and the evidence it was drawn from. */
    @JsonPropertyOrder({"kind", "schema_version", "summary", "diagnosis", "evidence"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, ExplainSummary summary, Diagnosis diagnosis,
                           NcclLogEvidence evidence) {
    }

    public static void write(PrintWriter out, NcclLogEvidence e, Diagnosis d) {
        var c = e.counts();
        String versions = e.ncclVersions().isEmpty() ? "NCCL version not printed"
                : "NCCL " + String.join(", ", e.ncclVersions().stream().map(NcclLogEvidence.Versioned::version)
                .toList());
        out.printf(Locale.ROOT, "Read %d file(s), %d lines (%d NCCL, %d not understood): %s, %d host(s)%s%n",
                e.sources().size(), c.total(), c.ncclLines(), c.unused(), versions, d.hosts(),
                d.ranks() > 0 ? ", " + d.ranks() + " ranks" : "");
        out.printf(Locale.ROOT, "Path:   %s%n", d.path().description);
        out.printf(Locale.ROOT, "Health: %s (%s, exit %d), %s%n", d.health().name().toLowerCase(Locale.ROOT)
                .replace('_', ' '), d.confidence(), d.health().exitCode.code, confidenceWords(d.confidence()));
        out.printf(Locale.ROOT, "Why:    %s%n", d.reason());
        List<Finding> important = d.findings(Severity.WARNING);
        for (Finding f : important) {
            out.printf(Locale.ROOT, "%n[%s] %s: %s%n", f.severity(), f.ruleId(), f.title());
            out.printf(Locale.ROOT, "  %s%n", f.detail());
            if (!f.evidence().isEmpty()) {
                out.println("  Evidence:");
                f.evidence().stream().limit(6).forEach(x -> out.println("    " + x));
            }
            if (!f.remedy().isEmpty()) {
                out.println("  Change:");
                f.remedy().forEach(x -> out.println("    " + x));
            }
            out.println("  See: " + f.reference());
        }
        if (important.isEmpty() && !d.evidence().isEmpty()) {
            out.println("Evidence:");
            d.evidence().stream().limit(4).forEach(x -> out.println("  " + x));
        }
        List<Finding> info = d.findings().stream().filter(f -> f.severity() == Severity.INFO).toList();
        if (!info.isEmpty()) {
            out.println();
            info.forEach(f -> out.printf(Locale.ROOT, "Note %s: %s%n", f.ruleId(), f.title()));
        }
        if (!d.pairs().isEmpty()) {
            Map<RouteKind, Long> byPath = new LinkedHashMap<>();
            d.pairs().forEach(p -> byPath.merge(p.path(), 1L, Long::sum));
            StringBuilder sb = new StringBuilder("Pairs:  ");
            byPath.forEach((k, n) -> sb.append(n).append(' ').append(k.id).append("  "));
            PairVerdict worst = d.pairs().stream().min((a, b) -> RouteKind.WORSE_FIRST.compare(a.path(), b.path())).get();
            sb.append("(e.g. ").append(worst.fromRank()).append(" -> ").append(worst.toRank()).append(": ")
                    .append(worst.path().id).append(worst.detail().isEmpty() ? "" : ", " + worst.detail())
                    .append(')');
            out.println(sb.toString().stripTrailing());
        }
        nics(out, d.nics());
    }

    /** "NICs:" one line per host and network, the hosts with a NIC out of its share first; at most 8 lines. */
    private static void nics(PrintWriter out, List<NicLoad> nics) {
        if (nics.isEmpty()) {
            return;
        }
        java.util.Set<String> bad = new java.util.HashSet<>();
        nics.stream().filter(n -> n.verdict().equals(NicLoad.UNUSED) || n.verdict().equals(NicLoad.OVERLOADED))
                .forEach(n -> bad.add(n.host() + '|' + n.network()));
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<NicLoad> firsts = new ArrayList<>();
        nics.stream().sorted(java.util.Comparator.comparing((NicLoad n) -> !bad.contains(n.host() + '|' + n.network())))
                .filter(n -> seen.add(n.host() + '|' + n.network())).forEach(firsts::add);
        out.println("NICs:   NET channels each NIC carried (ring/tree; +send/recv), peers");
        for (NicLoad n : firsts.subList(0, Math.min(8, firsts.size()))) {
            // a host none of whose NICs could be judged says why once: its first listed NIC's reason
            List<NicLoad> same = nics.stream().filter(o -> o.host().equals(n.host()) && o.network().equals(n.network()))
                    .toList();
            String why = same.stream().filter(NicLoad::listed).map(NicLoad::why).findFirst().orElse(n.why());
            boolean judged = same.stream().anyMatch(o -> !o.verdict().equals(NicLoad.UNJUDGED));
            out.println("  " + NicLines.host(nics, n) + (judged || why.isEmpty() ? "" : "; not judged: " + why));
        }
        if (firsts.size() > 8) {
            long badLeft = firsts.stream().skip(8).filter(n -> bad.contains(n.host() + '|' + n.network())).count();
            out.printf(Locale.ROOT, "  ... %d more host line(s)%s%n", firsts.size() - 8,
                    badLeft == 0 ? ", no NIC among them unused or over its share" : ", " + badLeft + " with a NIC out"
                            + " of its share (--json lists every NIC)");
        }
    }

    private static String confidenceWords(String confidence) {
        return switch (confidence) {
            case "certain" -> "read from NCCL's own lines";
            case "likely" -> "read from indirect lines, or with a gap (see Why)";
            default -> "not enough evidence to say";
        };
    }
}
