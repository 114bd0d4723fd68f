package dev.ncclbench.gate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.output.Json;

import java.util.Locale;

/** The gate's decision as JSON (docs/gate.md): verdict, exit code, per size the figures and the statistics. */
public final class GateJson {
    static final ObjectMapper JSON = Json.mapper();
    public static final String KIND = "ncclbench.gate";
    /** 2: kind "ncclbench.gate" (was "ncclbench-gate"); a curve finding's "rule" is "id", with remedy and reference. */
    public static final int SCHEMA_VERSION = 2;

    private GateJson() {
    }

    public static ObjectNode tree(GateReport r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("kind", KIND);
        o.put("schema_version", SCHEMA_VERSION);
        o.put("verdict", r.verdict().name());
        o.put("exit_code", r.exitCode().code);
        o.put("summary", r.verdictLine());
        o.put("run", r.runFile());
        o.put("baseline", r.baselineName());
        o.put("baseline_file", r.baselineFile());
        o.put("baseline_runs", r.baselineRuns());
        o.put("exact_fingerprint", r.exactMatch());
        o.put("fingerprint_id", r.runFingerprint().id());
        o.set("fingerprint", JSON.valueToTree(r.runFingerprint()));
        o.put("options", r.options());
        o.put("timestamp", r.timestamp());
        ArrayNode changes = o.putArray("changes");
        for (Fingerprint.Change c : r.changes()) {
            ObjectNode n = changes.addObject();
            n.put("kind", c.kind());
            n.put("what", c.what());
            n.put("before", c.before());
            n.put("after", c.after());
        }
        if (r.ncclChoices() != null) {
            // what NCCL decided differently from the baseline's runs, whatever the verdict: data for the reader
            o.set("nccl_choices", JSON.valueToTree(r.ncclChoices()));
        }
        ArrayNode sizes = o.putArray("sizes");
        for (SizeResult s : r.sizes()) {
            ObjectNode n = sizes.addObject();
            n.put("collective", s.key().collective());
            n.put("size", s.key().size());
            n.put("type", s.key().type());
            n.put("redop", s.key().redop());
            n.put("root", s.key().root());
            n.put("placement", s.key().placement());
            n.put("status", s.status().name().toLowerCase(Locale.ROOT));
            n.put("judged_on", s.metric());
            n.put("statistic", s.statistic());
            num(n, "baseline_table_us", s.baseTableUs());
            num(n, "run_table_us", s.runTableUs());
            n.put("tolerance", s.tolerance());
            num(n, "baseline_value", s.baselineValue());
            num(n, "run_value", s.runValue());
            num(n, "change", s.change());
            n.put("baseline_path", s.basePath());
            n.put("run_path", s.runPath());
            Comparison c = s.comparison();
            if (c != null) {
                ObjectNode st = n.putObject("statistics");
                num(st, "baseline_median_us", c.baselineMedianUs());
                num(st, "run_median_us", c.runMedianUs());
                num(st, "ratio", c.ratio());
                num(st, "ci_low", c.ciLow());
                num(st, "ci_high", c.ciHigh());
                num(st, "p_slower", c.pSlower());
                num(st, "p_faster", c.pFaster());
                num(st, "noise", c.noise());
                st.put("baseline_groups", c.baselineGroups());
                st.put("baseline_samples", c.baselineCount());
                st.put("run_samples", c.runCount());
                st.put("table_only", c.tableOnly());
            } else {
                n.putNull("statistics");
            }
        }
        o.set("curve", JSON.valueToTree(r.curve()));
        return o;
    }

    public static String render(GateReport r) {
        try {
            return Json.pretty().writeValueAsString(tree(r)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the gate report", e);
        }
    }

    private static void num(ObjectNode n, String k, double v) {
        if (Double.isFinite(v)) {
            n.put(k, v);
        } else {
            n.putNull(k);
        }
    }
}
