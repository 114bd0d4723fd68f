package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.preflight.Preflight;
import dev.ncclbench.report.ReportData;
import dev.ncclbench.sweep.PathInputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * `ncclbench preflight`: a short sweep with its log reading and path verdict, then the gate against the
 * matching baseline (or the curve check alone), and one verdict line: PASS, DEGRADED or FAIL with the reason.
 */
@Command(name = "preflight", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Before a long job: a short sweep (about a minute), the path verdict from NCCL's log, the gate"
                + " against the matching baseline; one line PASS / DEGRADED / FAIL with the reason.",
        footer = "%nExit codes: 0 PASS, 6 DEGRADED (regression or degraded path), 3 environment not ready,"
                + " 4 run failed, 5 timeout/hang (FAIL), 2 usage.")
public final class PreflightCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", description = "Minimum size (default: 8)")
    String minBytes = "8";

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", description = "Maximum size (default: 1G with GPUs, 64M on sockets)")
    String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "N", description = "Multiplicative step (default: 4)")
    String stepFactor = "4";

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "Timed iterations per size (default: 20)")
    String iters = "20";

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", description = "Warm-up iterations per size (default: 5)")
    String warmup = "5";

    @Option(names = "--collective", paramLabel = "NAME[,NAME]", description = "Collectives (default: all_reduce)")
    String collective = "all_reduce";

    @Option(names = "--backend", paramLabel = "auto|nccl|socket", description = "Backend (default: auto)")
    String backend = "auto";

    @Option(names = "--sweep-arg", paramLabel = "ARG", description = "one more sweep flag, passed as is (repeatable: --sweep-arg=-g --sweep-arg=8)")
    List<String> sweepArgs = new ArrayList<>();

    @Option(names = "--ranks", paramLabel = "N", description = "Local ranks as threads (socket backend)")
    String ranks;

    @Option(names = "--rank", paramLabel = "N", description = "This process's rank, when no launcher sets it")
    String rank;

    @Option(names = "--world-size", paramLabel = "N", description = "Number of processes, when no launcher sets it")
    String worldSize;

    @Option(names = "--rendezvous", paramLabel = "HOST:PORT", description = "Rank 0's store address")
    String rendezvous;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: results/runs)")
    Path out = Path.of("results", "runs");

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "baseline (default: the one in --dir whose fingerprint matches)")
    String baseline;

    @Option(names = "--html", paramLabel = "FILE", description = "also write the HTML report")
    Path html;

    @Mixin
    GateCommand.GateSettings settings;

    @Mixin
    GateOutputOptions outputs;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter e = spec.commandLine().getErr();
        settings.options(); // a bad gate flag is exit 2 before a minute of sweeping
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path json = out.resolve("preflight-" + stamp + "-" + ProcessHandle.current().pid()).resolve("result.json");
        StringWriter sweepErr = new StringWriter();
        PrintWriter tee = new PrintWriter(new Tee(e, sweepErr), true);
        int code = Main.run(sweepArgs(json).toArray(String[]::new), o, tee);
        tee.flush();
        Preflight.Sweep sweep = new Preflight.Sweep(code, lastLine(sweepErr.toString()));
        if (!Files.isRegularFile(json)) {
            // not rank 0 (its JSON is rank 0's to write), or the sweep failed before its first row
            Preflight.Verdict v = Preflight.decide(sweep, null);
            if (v.exitCode() != ExitCode.OK || rank == null || rank.equals("0")) {
                o.println(v.line());
            }
            return v.exitCode().code;
        }
        GateReport gate = null;
        if (code == ExitCode.OK.code || code == ExitCode.DEGRADED.code) {
            gate = settings.judge(json.toString(), ResultInput.read(json), baseline, e);
            outputs.write(gate, o);
            if (html != null) {
                PathInputs path = PathOptions.resolve(settings.fabric, settings.catalog, settings.socketFloor);
                ReportCommand.write(ReportData.of(List.of(new ReportData.Run("preflight", json.toString(),
                        ResultInput.read(json))), null, path.fabric(), path.socketFloor(),
                        settings.options().latencyBelow(), gate, "ncclbench preflight"), html, null, null);
            }
        }
        Preflight.Verdict v = Preflight.decide(sweep, gate);
        o.println(v.line());
        o.flush();
        return v.exitCode().code;
    }

    List<String> sweepArgs(Path json) {
        List<String> a = new ArrayList<>(List.of("sweep", "--no-progress", "-b", minBytes, "-f", stepFactor, "-n", iters,
                "-w", warmup, "--collective", collective, "--backend", backend, "--json", json.toString(),
                "--out", out.toString()));
        a.add("-e");
        a.add(maxBytes != null ? maxBytes : "socket".equals(backend) ? "64M" : "1G");
        add(a, "--ranks", ranks);
        add(a, "--rank", rank);
        add(a, "--world-size", worldSize);
        add(a, "--rendezvous", rendezvous);
        add(a, "--fabric", settings.fabric);
        add(a, "--catalog", settings.catalog == null ? null : settings.catalog.toString());
        add(a, "--socket-floor", settings.socketFloor);
        a.addAll(sweepArgs);
        return a;
    }

    private static void add(List<String> a, String flag, String v) {
        if (v != null) {
            a.add(flag);
            a.add(v);
        }
    }

    private static String lastLine(String s) {
        List<String> lines = s.lines().filter(l -> !l.isBlank() && !l.startsWith("ncclbench: results in")).toList();
        return lines.isEmpty() ? null : lines.get(lines.size() - 1).replaceFirst("^ncclbench: ", "");
    }

    /** Writes to the real stderr and keeps a copy to read the sweep's one-line reason from. */
    private static final class Tee extends Writer {
        private final Writer a;
        private final Writer b;

        Tee(Writer a, Writer b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(char[] c, int off, int len) throws java.io.IOException {
            a.write(c, off, len);
            b.write(c, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            a.flush();
            b.flush();
        }

        @Override
        public void close() throws java.io.IOException {
            flush();
        }
    }
}
