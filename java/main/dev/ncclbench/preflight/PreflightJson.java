package dev.ncclbench.preflight;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.GateJson;
import dev.ncclbench.output.Json;

import java.util.List;
import java.util.Locale;

/** The preflight as JSON: the verdict, every reason, doctor's findings, the sweep's exit and the gate's decision. */
public final class PreflightJson {
    private static final ObjectMapper JSON = Json.mapper();

    private PreflightJson() {
    }

    public static ObjectNode tree(PreflightReport r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("kind", "ncclbench-preflight");
        o.put("schema_version", 1);
        o.put("verdict", r.verdict().word());
        o.put("exit_code", r.verdict().exitCode().code);
        o.put("reason", r.verdict().reason());
        o.put("line", r.verdict().line());
        ArrayNode reasons = o.putArray("reasons");
        for (Preflight.Reason x : r.verdict().reasons()) {
            ObjectNode n = reasons.addObject();
            n.put("verdict", x.word());
            n.put("exit_code", x.exitCode().code);
            n.put("text", x.text());
        }
        if (r.doctor() == null) {
            o.putNull("doctor");
        } else {
            ObjectNode d = o.putObject("doctor");
            d.put("host", r.host());
            d.set("ignored", JSON.valueToTree(r.ignored()));
            ArrayNode fs = d.putArray("findings");
            for (Finding f : r.doctor()) {
                ObjectNode n = fs.addObject();
                n.put("rule", f.ruleId());
                n.put("severity", f.severity().name().toLowerCase(Locale.ROOT));
                n.put("degrades_path", DoctorRules.book().degrades(List.of(f)));
                n.put("title", f.title());
                n.put("detail", f.detail());
                n.set("evidence", JSON.valueToTree(f.evidence()));
                n.set("remedy", JSON.valueToTree(f.remedy()));
            }
        }
        if (r.sweep() == null) {
            o.putNull("sweep");
        } else {
            ObjectNode s = o.putObject("sweep");
            s.put("exit_code", r.sweep().exitCode());
            s.put("last_line", r.sweep().reason());
        }
        if (r.gate() == null) {
            o.putNull("gate");
        } else {
            o.set("gate", GateJson.tree(r.gate()));
        }
        return o;
    }

    public static String render(PreflightReport r) {
        try {
            return Json.pretty().writeValueAsString(tree(r)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the preflight report", e);
        }
    }
}
