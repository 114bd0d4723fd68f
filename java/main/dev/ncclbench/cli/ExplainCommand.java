package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.Diagnoser;
import dev.ncclbench.diagnosis.Diagnosis;
import dev.ncclbench.diagnosis.ExplainSummary;
import dev.ncclbench.diagnosis.rules.ExplainRules;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.diagnosis.facts.PairVerdict;
import dev.ncclbench.diagnosis.facts.PathKind;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** `ncclbench explain`: reads NCCL's debug log and says which path the bytes took, why, and what to change. */
@Command(name = "explain", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Read NCCL's debug output (NCCL_DEBUG=INFO; files, a directory of NCCL_DEBUG_FILE files,"
                + " or - for stdin) and say which path the bytes took, how sure, why, and what to change.",
        footer = "%nExit codes: 0 healthy path for the topology, 2 usage error or no path evidence in the input,"
                + " 3 NCCL init failed, 4 NCCL failed after init, 6 degraded path (sockets or host-staged where"
                + " RDMA is present), or a finding at the --fail-on severity.")
public final class ExplainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE|DIR|-", description = "NCCL log files, directories of them, or -")
    List<String> inputs;

    @Option(names = "--json", description = "Print the whole structure (summary, diagnosis, evidence) as JSON")
    boolean json;

    @Option(names = "--ignore", paramLabel = "ID", description = "Drop the findings of this rule (repeatable; see"
            + " `ncclbench rules`); they no longer count for the health or the exit code")
    List<String> ignore = List.of();

    @Option(names = "--fail-on", paramLabel = "warn|error", description = "Also exit 6 when a finding of this"
            + " severity or worse remains, even on a healthy path")
    String failOn;

    @Option(names = "--stdin", hidden = true)
    InputStream stdin = System.in;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        FailOn threshold = null;
        if (failOn != null) {
            try {
                threshold = FailOn.parse(failOn);
            } catch (IllegalArgumentException ex) {
                throw NcclbenchException.usage(ex.getMessage());
            }
        }
        Set<String> ignored = new LinkedHashSet<>();
        for (String id : ignore) {
            if (!ExplainRules.book().knows(id)) {
                throw NcclbenchException.usage("--ignore " + id + ": no such rule (`ncclbench rules` lists them)");
            }
            ignored.add(id);
        }
        NcclLogReader reader = new NcclLogReader();
        for (String in : inputs) {
            try {
                if (in.equals("-")) {
                    reader.read(stdin, "-");
                } else {
                    Path p = Path.of(in);
                    if (!Files.exists(p)) {
                        throw NcclbenchException.usage(in + ": no such file or directory");
                    }
                    reader.read(p);
                }
            } catch (IOException e) {
                throw NcclbenchException.usage(in + ": cannot read: " + e.getMessage());
            }
        }
        NcclLogEvidence e = reader.evidence();
        Diagnosis d = Diagnoser.diagnose(e, ignored);
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("schema", "ncclbench.explain/1");
            doc.put("summary", ExplainSummary.of(e, d));
            doc.put("diagnosis", d);
            doc.put("evidence", e);
            try {
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
            } catch (IOException ex) {
                throw new NcclbenchException(ExitCode.INTERNAL, "cannot write JSON: " + ex.getMessage(), ex);
            }
        } else {
            text(out, e, d);
        }
        out.flush();
        int code = d.health().exitCode.code;
        if (code == ExitCode.OK.code && threshold != null && threshold.fails(d.findings())) {
            return ExitCode.DEGRADED.code;
        }
        return code;
    }

    static void text(PrintWriter out, NcclLogEvidence e, Diagnosis d) {
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
            Map<PathKind, Long> byPath = new LinkedHashMap<>();
            d.pairs().forEach(p -> byPath.merge(p.path(), 1L, Long::sum));
            StringBuilder sb = new StringBuilder("Pairs:  ");
            byPath.forEach((k, n) -> sb.append(n).append(' ').append(k.id).append("  "));
            PairVerdict worst = d.pairs().stream().min((a, b) -> PathKind.WORSE_FIRST.compare(a.path(), b.path())).get();
            sb.append("(e.g. ").append(worst.fromRank()).append(" -> ").append(worst.toRank()).append(": ")
                    .append(worst.path().id).append(worst.detail().isEmpty() ? "" : ", " + worst.detail())
                    .append(')');
            out.println(sb.toString().stripTrailing());
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
