package dev.ncclbench.preflight;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.gate.GateJson;
import dev.ncclbench.output.Json;


/** The preflight as JSON: the verdict, every reason, doctor's findings, the sweep's exit and the gate's decision. */
public final class PreflightJson {
    private static final ObjectMapper JSON = Json.mapper();
    public static final String KIND = "ncclbench.preflight";
    /** 2: kind "ncclbench.preflight" (was "ncclbench-preflight"); a finding's "rule" is "id", with reference. */
    public static final int SCHEMA_VERSION = 2;

    private PreflightJson() {
    }

    public static ObjectNode tree(PreflightReport r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("kind", KIND);
        o.put("schema_version", SCHEMA_VERSION);
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
            d.set("findings", JSON.valueToTree(r.doctor()));
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
