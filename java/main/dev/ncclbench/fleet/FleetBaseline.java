package dev.ncclbench.fleet;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fleet baseline: per pair of hosts and load (how many pairs each node ran at once), the per-iteration times of
 * a healthy run at each size, as the gate keeps them per table line. Written by {@code fleet --record-baseline NAME}
 * as NAME.fleet-baseline.json beside the sweep baselines (results/baselines); read by {@code fleet --baseline NAME}.
 * Its own file, not a sweep baseline: a sweep baseline keys lines by collective and size, a fleet one by pair too,
 * and fleet.json does not carry the samples.
 *
 * @param fingerprint how the pairs were measured (backend, collectives, sizes, type, op): a run measured otherwise
 *                    is refused, as the gate refuses one
 * @param pairs       "a|b|load" (a before b by name) to that pair's lines
 */
public record FleetBaseline(String name, String createdAt, Map<String, String> fingerprint,
                            Map<String, List<SizeSamples>> pairs) {
    public static final String KIND = "ncclbench.fleet-baseline";
    public static final int SCHEMA_VERSION = 1;
    public static final String SUFFIX = ".fleet-baseline.json";

    /** How this run measures its pairs. */
    static Map<String, String> fingerprintOf(String backend, FleetSettings s) {
        Map<String, String> f = new TreeMap<>();
        f.put("backend", backend);
        f.put("collectives", String.join(",", s.collectives()));
        f.put("sizes_bytes", String.join(",", s.sizes().stream().map(String::valueOf).toList()));
        f.put("type", "float");
        f.put("op", "sum");
        return f;
    }

    static String key(String a, String b, int load) {
        return (a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a) + "|" + load;
    }

    /** The recorded lines of a pair at a load, or null: "no baseline for this pair". */
    List<SizeSamples> lines(String a, String b, int load) {
        return pairs.get(key(a, b, load));
    }

    /** Refuses (exit 2) a run measured otherwise than this baseline, naming every difference. */
    void admit(Map<String, String> run) {
        List<String> diff = new ArrayList<>();
        for (String k : new java.util.TreeSet<>(fingerprint.keySet())) {
            if (!java.util.Objects.equals(fingerprint.get(k), run.get(k))) {
                diff.add(k + " " + fingerprint.get(k) + " in the baseline, " + run.get(k) + " now");
            }
        }
        if (!diff.isEmpty()) {
            throw NcclbenchException.usage("baseline " + name + " was measured otherwise (" + String.join("; ", diff)
                    + "): record one for these flags with --record-baseline");
        }
    }

    /**
     * The baseline of a finished search: every pair result not slow between two nodes judged good, the last one per
     * pair and load (a slow node or a bad link would teach the baseline that slow is normal).
     */
    static FleetBaseline of(String name, SearchResult r, List<String> hosts, Map<String, String> fingerprint) {
        if (!name.matches("[A-Za-z0-9._-]+")) {
            throw NcclbenchException.usage("--record-baseline '" + name + "' may use only letters, digits, '.', '_' and '-'");
        }
        Evidence e = r.evidence();
        Map<String, List<SizeSamples>> pairs = new TreeMap<>();
        for (GroupMeasurement m : e.measurements()) {
            if (!m.group().isPair() || m.failed() || m.samples() == null || m.samples().isEmpty() || e.slow(m)) {
                continue;
            }
            int a = m.group().members().get(0);
            int b = m.group().members().get(1);
            if (r.verdicts().node(a).status() == NodeVerdict.Status.GOOD && r.verdicts().node(b).status() == NodeVerdict.Status.GOOD) {
                pairs.put(key(hosts.get(a), hosts.get(b), m.load()), m.samples());
            }
        }
        return new FleetBaseline(name, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), fingerprint, pairs);
    }

    /** The file: pairs as a list, each with its hosts and load spelt out (the map's key is "a|b|load"). */
    @JsonPropertyOrder({"kind", "schema_version", "name", "created_at", "fingerprint", "pairs"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Document(String kind, int schemaVersion, String name, String createdAt, Map<String, String> fingerprint,
                    List<Pair> pairs) {
    }

    @JsonPropertyOrder({"a", "b", "load", "lines"})
    record Pair(String a, String b, int load, List<Line> lines) {
    }

    /** One size of a pair: the first group of samples is the pair's (a fleet run keeps one per size). */
    @JsonPropertyOrder({"collective", "size", "busbw_time_us", "samples_us"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Line(String collective, long size, double busbwTimeUs, double[] samplesUs) {
        static Line of(SizeSamples s) {
            return new Line(s.key().collective(), s.key().size(), s.busbwTimeUs(), s.groups().get(0));
        }

        SizeSamples samples() {
            return new SizeSamples(new SizeKey(collective, size, "float", "sum", -1), List.of(samplesUs), busbwTimeUs,
                    List.of());
        }
    }

    Document document() {
        List<Pair> list = new ArrayList<>();
        pairs.forEach((k, lines) -> {
            String[] p = k.split("\\|");
            list.add(new Pair(p[0], p[1], Integer.parseInt(p[2]), lines.stream().map(Line::of).toList()));
        });
        return new Document(KIND, SCHEMA_VERSION, name, createdAt, fingerprint, list);
    }

    Path write(Path dir) {
        Path file = dir.resolve(name + SUFFIX);
        AtomicFile.writeOutput(file, Json.prettyText(document()) + "\n");
        return file;
    }

    /** By name in {@code dir} or by path; a missing, corrupt or foreign file is one usage line naming it. */
    public static FleetBaseline read(Path dir, String nameOrFile) {
        Path file = Files.exists(Path.of(nameOrFile)) || nameOrFile.contains("/") ? Path.of(nameOrFile) : dir.resolve(nameOrFile + SUFFIX);
        if (!Files.isRegularFile(file)) {
            throw NcclbenchException.usage("fleet baseline " + file + " does not exist (record one with fleet --record-baseline "
                    + nameOrFile + ")");
        }
        try {
            JsonNode t = Json.mapper().readTree(file.toFile());
            if (t == null || !KIND.equals(t.path("kind").asText(null))) {
                throw NcclbenchException.usage(file + " is not a fleet baseline (no \"kind\": \"" + KIND + "\")");
            }
            if (t.path("schema_version").asInt(-1) != SCHEMA_VERSION) {
                throw NcclbenchException.usage("fleet baseline " + file + " has schema_version "
                        + t.path("schema_version").asInt(-1) + "; this ncclbench reads " + SCHEMA_VERSION);
            }
            Document d = Json.mapper().treeToValue(t, Document.class);
            Map<String, List<SizeSamples>> pairs = new TreeMap<>();
            for (Pair p : d.pairs() == null ? List.<Pair>of() : d.pairs()) {
                List<SizeSamples> lines = new ArrayList<>();
                for (Line l : p.lines() == null ? List.<Line>of() : p.lines()) {
                    if (l.samplesUs() == null || l.samplesUs().length == 0) {
                        throw NcclbenchException.usage("fleet baseline " + file + " is corrupt: a pair line has no samples");
                    }
                    lines.add(l.samples());
                }
                pairs.put(key(p.a(), p.b(), p.load()), lines);
            }
            return new FleetBaseline(d.name(), d.createdAt(), new TreeMap<>(d.fingerprint() == null ? Map.of()
                    : d.fingerprint()), pairs);
        } catch (IOException e) {
            throw NcclbenchException.usage("fleet baseline " + file + " cannot be read: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
