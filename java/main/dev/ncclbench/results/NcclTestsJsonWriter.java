package dev.ncclbench.results;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.ncclbench.NcclVersionCode;
import dev.ncclbench.spec.RunSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nccl-tests' -J: its JSON, version 3, key for key in the order util.cu writes it, so that its own tools
 * (tools/analyze_perf_json.py) read ours. Like nccl-tests it takes FILE, or FILE.0, FILE.1... when FILE exists, and
 * says which on stdout; unlike nccl-tests it records the NCCL and launcher variables of the environment only
 * (RecordedEnvironment), not every variable with its secrets. Each rank of ours is one of its "process" rows.
 * The document is written when the run finishes, with the rows that finished and the error, if any.
 */
final class NcclTestsJsonWriter implements ResultSink {
    /** util.cu's JSON_FILE_VERSION. */
    static final int VERSION = 3;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    private static final Pattern CUDA_DEVICE = Pattern.compile("cuda:(\\d+)\\s+\\[([0-9a-fA-F]+:[0-9a-fA-F]+:[0-9a-fA-F]+)[^]]*]\\s*(.*)");
    private static final Pattern VERSION_CODE = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

    private final Path asked;
    private final PrintWriter out;
    private final Clock clock;
    private Path file;
    private ResultDocument run;
    private String startTime;
    private final List<ResultRow> rows = new ArrayList<>();
    private final List<String> collectives = new ArrayList<>();

    NcclTestsJsonWriter(Path file, PrintWriter out, Clock clock) {
        this.asked = file;
        this.out = out;
        this.clock = clock;
    }

    /** The file written: FILE, or FILE.N when FILE existed; null before beginRun. */
    Path file() {
        return file;
    }

    @Override
    public void beginRun(ResultDocument run) {
        this.run = run;
        this.startTime = TIME.format(LocalDateTime.now(clock));
        file = reserve(asked);
        out.print("# Writing JSON output to " + file + "\n");
        out.flush();
    }

    /** util.cu's jsonOutputInit: fopen(path, "wx"), then path.0, path.1... while the name is taken. */
    static Path reserve(Path path) {
        Path tryPath = path;
        for (int n = 0; ; n++) {
            try {
                Files.createFile(tryPath);
                return tryPath;
            } catch (FileAlreadyExistsException taken) {
                tryPath = path.resolveSibling(path.getFileName() + "." + n);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create -J " + tryPath + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void beginCollective(String collective) {
        collectives.add(collective);
    }

    @Override
    public void row(ResultRow row) {
        rows.add(row);
    }

    @Override
    public void endCollective(String collective) {
    }

    @Override
    public void verdicts(List<ResultRow> diagnosed) {
    }

    @Override
    public void finish(String status, String error) {
        ResultSink.checkStatus(status);
        if (file == null) {
            return;
        }
        try (OutputStream os = Files.newOutputStream(file, StandardOpenOption.TRUNCATE_EXISTING);
             JsonGenerator g = new JsonFactory().createGenerator(os)) {
            write(g, error);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write -J " + file + ": " + e.getMessage(), e);
        }
    }

    private void write(JsonGenerator g, String error) throws IOException {
        RunSpec spec = run.spec();
        g.writeStartObject();
        g.writeNumberField("version", VERSION);
        g.writeStringField("start_time", startTime);
        g.writeArrayFieldStart("args");
        for (String a : run.commandLine()) {
            g.writeString(a);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("env");
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(run.environment() == null ? Map.of()
                : run.environment()).entrySet()) {
            g.writeString(e.getKey() + "=" + e.getValue());
        }
        g.writeEndArray();
        g.writeNumberField("nccl_version", ncclVersionCode(run.versions() == null ? null : run.versions().get("nccl")));
        config(g, spec);
        g.writeArrayFieldStart("results");
        long outOfBounds = 0;
        double busbwSum = 0;
        int placements = 0;
        for (ResultRow r : rows) {
            result(g, r, spec);
            for (Measurement m : List.of(r.outOfPlace(), r.inPlace())) {
                outOfBounds += m.checked() ? m.wrongRanks() : 0;
                busbwSum += m.busbw();
                placements++;
            }
        }
        g.writeEndArray();
        g.writeObjectFieldStart("out_of_bounds");
        g.writeNumberField("count", outOfBounds);
        g.writeStringField("okay", outOfBounds == 0 ? "true" : "false");
        g.writeEndObject();
        g.writeObjectFieldStart("average_bus_bandwidth");
        number(g, "bandwidth", placements == 0 ? 0 : busbwSum / placements);
        g.writeStringField("okay", "unchecked");
        g.writeEndObject();
        g.writeArrayFieldStart("errors");
        if (error != null) {
            g.writeString(error);
        }
        g.writeEndArray();
        g.writeStringField("end_time", TIME.format(LocalDateTime.now(clock)));
        g.writeEndObject();
    }

    /** util.cu's writeDeviceReport: the run's settings, then one device per rank. */
    private void config(JsonGenerator g, RunSpec spec) throws IOException {
        g.writeObjectFieldStart("config");
        g.writeNumberField("nthreads", spec.devices().threads());
        g.writeNumberField("ngpus", spec.devices().gpusPerThread());
        g.writeNumberField("minimum_bytes", spec.range().minBytes());
        g.writeNumberField("maximum_bytes", spec.range().maxBytes());
        if (spec.range().stepFactor() > 1) {
            g.writeNumberField("step_factor", spec.range().stepFactor());
        } else {
            g.writeNumberField("step_bytes", spec.range().stepBytes());
        }
        g.writeNumberField("warmup_iters", spec.iterations().warmupIters());
        g.writeNumberField("iterations", spec.iterations().iters());
        g.writeNumberField("aggregated_iterations", spec.iterations().aggIters());
        g.writeNumberField("validation", spec.data().checkIters());
        g.writeNumberField("graph", spec.devices().cudaGraph());
        // nccl-tests writes its booleans as the strings "true" and "false" (jsonBool)
        g.writeStringField("blocking_collectives", spec.timing().blocking() != 0 ? "true" : "false");
        g.writeStringField("per_iter_timing", spec.devices().perIterTiming() != 0 ? "true" : "false");
        g.writeNumberField("per_iter_skip", spec.ncclTests().flags().perIterSkip());
        g.writeStringField("parallel_init", spec.ncclTests().flags().parallelInit() != 0 ? "true" : "false");
        g.writeArrayFieldStart("devices");
        for (RankInfo rank : run.ranks() == null ? List.<RankInfo>of() : run.ranks()) {
            device(g, rank);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** jsonRankInfo: a GPU rank as "cuda:3 [0000:18:00.0] NVIDIA H200"; a socket rank has device -1 and its NIC. */
    private static void device(JsonGenerator g, RankInfo rank) throws IOException {
        String device = rank.device() == null ? "" : rank.device();
        Matcher cuda = CUDA_DEVICE.matcher(device);
        g.writeStartObject();
        g.writeNumberField("rank", rank.rank());
        g.writeNumberField("group", rank.group());
        g.writeNumberField("pid", rank.pid());
        g.writeStringField("hostname", rank.host());
        g.writeNumberField("device", cuda.matches() ? Integer.parseInt(cuda.group(1)) : -1);
        g.writeStringField("device_hex", cuda.matches() ? cuda.group(2).toLowerCase(Locale.ROOT) : "");
        // nccl-tests writes the device's name alone; ours says after "; " how its data was filled and checked
        String info = cuda.matches() ? cuda.group(3) : device;
        g.writeStringField("device_info", info.contains("; ") ? info.substring(0, info.indexOf("; ")) : info);
        g.writeEndObject();
    }

    /** One row: writeBenchmarkLinePreamble, each placement's body and per-iteration report, the terminator. */
    private void result(JsonGenerator g, ResultRow r, RunSpec spec) throws IOException {
        g.writeStartObject();
        g.writeNumberField("size", r.sizeBytes());
        g.writeNumberField("count", r.count());
        g.writeStringField("type", r.type());
        g.writeStringField("redop", r.redop());
        g.writeStringField("root", String.format(Locale.ROOT, "%6d", r.root()));
        placement(g, "out_of_place", r.outOfPlace(), spec);
        perIter(g, "out_of_place_per_iter", r.samplesOutOfPlace(), spec);
        placement(g, "in_place", r.inPlace(), spec);
        perIter(g, "in_place_per_iter", r.samplesInPlace(), spec);
        g.writeNumberField("actual_iterations", spec.iterations().iters());
        // nccl-tests runs one collective per process and writes ""; a run of several names each row's
        g.writeStringField("experiment_name", collectives.size() > 1 ? r.collective() : "");
        g.writeEndObject();
    }

    private static void placement(JsonGenerator g, String key, Measurement m, RunSpec spec) throws IOException {
        g.writeObjectFieldStart(key);
        number(g, spec.ncclTests().flags().reportCputime() != 0 ? "cpu_time" : "time", m.timeUs());
        number(g, "alg_bw", m.algbw());
        number(g, "bus_bw", m.busbw());
        if (m.checked()) {
            number(g, "nwrong", m.wrong());
        } else {
            g.writeNullField("nwrong");
        }
        g.writeEndObject();
    }

    /** writePerIterReport: with -I 1 only, as nccl-tests; the process rows when there are several ranks. */
    private static void perIter(JsonGenerator g, String key, SampleStats s, RunSpec spec) throws IOException {
        if (spec.devices().perIterTiming() == 0 || s == null || s.count() == 0) {
            return;
        }
        g.writeObjectFieldStart(key);
        g.writeNumberField("skipped_iterations", s.skipped());
        number(g, "min_us", s.minUs());
        number(g, "max_us", s.maxUs());
        number(g, "avg_us", s.meanUs());
        number(g, "p50_us", s.medianUs());
        number(g, "p95_us", s.p95Us());
        number(g, "p99_us", s.p99Us());
        number(g, "stdev_us", s.stdevUs());
        number(g, "cv_pct", s.cvPercent());
        g.writeArrayFieldStart("times_us");
        for (double v : s.timesUs()) {
            value(g, v);
        }
        g.writeEndArray();
        if (s.perRankUs().length > 1) {
            g.writeArrayFieldStart("per_process_max_times_us");
            for (double[] row : s.perRankUs()) {
                g.writeStartArray();
                for (double v : row) {
                    value(g, v);
                }
                g.writeEndArray();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void number(JsonGenerator g, String key, double v) throws IOException {
        g.writeFieldName(key);
        value(g, v);
    }

    /** jsonDouble: "%lf", and the string "nan" for NaN (also "inf": a bare inf would not be JSON). */
    private static void value(JsonGenerator g, double v) throws IOException {
        if (Double.isNaN(v)) {
            g.writeString("nan");
        } else if (Double.isInfinite(v)) {
            g.writeString(v > 0 ? "inf" : "-inf");
        } else {
            g.writeNumber(String.format(Locale.ROOT, "%f", v));
        }
    }

    /** NCCL_VERSION_CODE of "2.30.7": 23007 (0 when the backend ran without NCCL). */
    static int ncclVersionCode(String version) {
        Matcher m = version == null ? null : VERSION_CODE.matcher(version);
        if (m == null || !m.find()) {
            return 0;
        }
        return NcclVersionCode.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }
}
