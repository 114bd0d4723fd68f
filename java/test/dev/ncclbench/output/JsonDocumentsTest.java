package dev.ncclbench.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.ncclbench.Goldens;
import dev.ncclbench.choices.CompareReport;
import dev.ncclbench.cli.Main;
import dev.ncclbench.diagnosis.Diagnoser;
import dev.ncclbench.diagnosis.ExplainText;
import dev.ncclbench.doctor.Doctor;
import dev.ncclbench.doctor.DoctorOptions;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.env.EnvReport;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.ProbeResult;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.fleet.FleetGolden;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.preflight.Preflight;
import dev.ncclbench.preflight.PreflightJson;
import dev.ncclbench.preflight.PreflightReport;
import dev.ncclbench.results.ResultGolden;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every JSON document kind the tool writes, produced by the real code on fixed inputs: it matches its golden in
 * java/test-resources/golden/json/ (rewritten by -Dgolden.update=true), and both the golden and the real output
 * validate against docs/schemas/KIND.schema.json.
 */
class JsonDocumentsTest {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", "."));
    private static final Path SCHEMAS = BASE.resolve("docs/schemas");
    static final Path OLD = Goldens.resources().resolve("golden/json/old");
    private static final Path HOSTS = Goldens.resources().resolve("doctor/hosts");
    // What differs between runs (clock, temporary folders); blanked before comparing with the golden only.
    private static final Set<String> VARYING = Set.of("created_at", "timestamp", "baseline_file", "run", "source", "folder");
    private static final String PREFIX = "https://ncclbench.dev/schemas/";

    @TempDir
    static Path dir;

    static SchemaRegistry registry() {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemas(iri -> {
            if (!iri.startsWith(PREFIX)) {
                return null;
            }
            try {
                return Files.readString(SCHEMAS.resolve(iri.substring(PREFIX.length())));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }));
    }

    static List<String> problems(String kind, String json) {
        List<Error> errors = registry().getSchema(com.networknt.schema.SchemaLocation.of(PREFIX + kind + ".schema.json"))
                .validate(json, InputFormat.JSON);
        return errors.stream().map(Error::toString).toList();
    }

    static String cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertTrue(code == 0 || code == 3 || code == 6, String.join(" ", args) + " -> " + code + ": " + err);
        return out.toString();
    }

    static String file(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each kind, written by its real writer. */
    static Map<String, Callable<String>> writers() {
        Map<String, Callable<String>> w = new LinkedHashMap<>();
        Path baselines = dir.resolve("baselines");
        Path host = dir.resolve("host.json");
        w.put("result", () -> ResultGolden.document(dir));
        w.put("baseline", () -> {
            cli("baseline", "record", OLD.resolve("result-v1.json").toString(), "--name", "golden", "--dir",
                    baselines.toString());
            return file(baselines.resolve("golden.baseline.json"));
        });
        w.put("gate", () -> {
            if (!Files.exists(baselines.resolve("golden.baseline.json"))) {
                w.get("baseline").call();
            }
            return cli("gate", "--dir", baselines.toString(), "--json", "-", OLD.resolve("result-v1.json").toString());
        });
        w.put("preflight", () -> {
            List<Finding> f = Doctor.judge(HostCollector.capture(HOSTS.resolve("laptop-ib-disable")),
                    new DoctorOptions(Host.of(Map.of()), null, null, false, null, Set.of(), FailOn.ERROR)).findings();
            Preflight.Sweep sweep = new Preflight.Sweep(0, null);
            return PreflightJson.render(new PreflightReport("gpu-node-0", f, List.of(), sweep, null,
                    Preflight.decide(f, sweep, null)));
        });
        w.put("fleet", FleetGolden::document);
        w.put("explain", () -> {
            String rel = "seeds/ib-without-gdrdma.log";
            try (InputStream in = Files.newInputStream(Goldens.resources().resolve("nccllog").resolve(rel))) {
                NcclLogEvidence e = new NcclLogReader().read(in, rel).evidence();
                return ExplainText.json(e, Diagnoser.diagnose(e)) + "\n";
            }
        });
        w.put("explain-runs", () -> {
            // two run folders: one verdict each, the worst run's exit code
            Path runs = dir.resolve("runs");
            Path nccllog = Goldens.resources().resolve("nccllog");
            for (String[] r : new String[][] {{"run-a", "seeds/ib-without-gdrdma.log"}, {"run-b", "real/nccl-1358-p2p-nnodes1.log"}}) {
                Files.createDirectories(runs.resolve(r[0]));
                Files.copy(nccllog.resolve(r[1]), runs.resolve(r[0]).resolve("nccl.host.1.log"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                Files.writeString(runs.resolve(r[0]).resolve("result.json"), "{}");
            }
            return cli("explain", "--json", "-", runs.toString());
        });
        w.put("explain-compare", () -> {
            // GPUDirect RDMA off on one node of four: a change with its before, after, effect and where
            Path logs = Goldens.resources().resolve("choices");
            CompareReport r = CompareReport.read(logs.resolve("gdr-4nodes-2.28.log"),
                    logs.resolve("gdr-off-node7-2.28.log"));
            CompareReport.Side b = new CompareReport.Side("gdr-4nodes-2.28.log", List.of("gdr-4nodes-2.28.log"),
                    r.before().choices());
            CompareReport.Side a = new CompareReport.Side("gdr-off-node7-2.28.log",
                    List.of("gdr-off-node7-2.28.log"), r.after().choices());
            return new CompareReport(b, a, r.comparison(), r.skipped()).json() + "\n";
        });
        w.put("doctor", () -> cli("doctor", "--json", "-", "--no-probe-nccl", "--root",
                HOSTS.resolve("a100-two-nic").toString()));
        w.put("host", () -> {
            cli("doctor", "--no-probe-nccl", "--root", HOSTS.resolve("a100-two-nic").toString(), "--save",
                    host.toString());
            return file(host);
        });
        w.put("doctor-compare", () -> {
            // a snapshot of today's form against one of version 1, from hosts that differ: findings to check
            Path other = dir.resolve("laptop.json");
            cli("doctor", "--no-probe-nccl", "--root", HOSTS.resolve("laptop-ib-disable").toString(), "--save",
                    other.toString());
            return cli("doctor", "--compare", other.toString(), OLD.resolve("host-v1.json").toString(), "--json", "-");
        });
        w.put("env", () -> {
            NativeLibraries.Found none = new NativeLibraries.Found("libnccl.so.2", null, null, List.of("NCCL_HOME"));
            NativeLibraries.Found cudart = new NativeLibraries.Found("libcudart.so.13",
                    Path.of("/usr/local/cuda/lib64/libcudart.so.13.0.48"), "CUDA_HOME", List.of("CUDA_HOME"));
            return new EnvReport(new NativeLibraries.Report(none, cudart, none, none, null, List.of()), null,
                    List.of(), false, "/home/user/.javacpp/cache", null).json() + "\n";
        });
        w.put("probe", () -> Json.prettyText(new ProbeResult(true, "libnccl.so.2",
                "/usr/lib/x86_64-linux-gnu/libnccl.so.2", null, 22805, 0, "no error", "", "eth0", "10.0.0.1<0>",
                List.of(), null, null).document()) + "\n");
        w.put("rules", () -> cli("rules", "--json", "-"));
        return w;
    }

    static String stable(String json) throws IOException {
        JsonNode tree = Json.mapper().readTree(json);
        blank(tree);
        return Json.prettyText(tree) + "\n";
    }

    private static void blank(JsonNode n) {
        if (n instanceof ObjectNode o) {
            o.properties().forEach(e -> {
                boolean absolute = e.getKey().equals("file") && e.getValue().asText().startsWith("/");
                if ((absolute || VARYING.contains(e.getKey())) && e.getValue().isValueNode() && !e.getValue().isNull()) {
                    e.setValue(e.getValue().isNumber() ? o.numberNode(0) : o.textNode("(varies)"));
                } else {
                    blank(e.getValue());
                }
            });
        } else {
            n.forEach(JsonDocumentsTest::blank);
        }
    }

    @BeforeAll
    static void schemasExist() {
        assertTrue(Files.isDirectory(SCHEMAS), SCHEMAS.toString());
    }

    @TestFactory
    Stream<DynamicTest> everyKindMatchesItsGoldenAndItsSchema() {
        return writers().entrySet().stream().map(k -> DynamicTest.dynamicTest(k.getKey(), () -> {
            String kind = k.getKey();
            String actual = k.getValue().call();
            JsonNode tree = Json.mapper().readTree(actual);
            assertEquals("ncclbench." + kind, tree.path("kind").asText(), kind);
            assertTrue(tree.path("schema_version").isInt(), kind + ": schema_version");
            String golden = Goldens.expect("golden/json/" + kind + ".json", stable(actual));
            assertEquals(List.of(), problems(kind, actual), kind + ": the real output against its schema");
            assertEquals(List.of(), problems(kind, golden), kind + ": the golden against its schema");
            assertEquals(golden, stable(actual), kind + ": golden/json/" + kind + ".json (-Dgolden.update=true)");
        }));
    }
}
