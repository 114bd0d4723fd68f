package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.doctor.Doctor;
import dev.ncclbench.doctor.DoctorOptions;
import dev.ncclbench.doctor.DoctorReport;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.GateText;
import dev.ncclbench.launch.LaunchDetector;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.preflight.Preflight;
import dev.ncclbench.preflight.PreflightReport;
import dev.ncclbench.results.OutputPaths;
import dev.ncclbench.report.ReportData;
import dev.ncclbench.sweep.PathInputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * `ncclbench preflight`: doctor on this host, a short sweep with its log reading and path verdict, then the gate
 * against the matching baseline (or the curve check alone), and one verdict line: PASS, DEGRADED or FAIL with the
 * reason. The steps run here; {@link Preflight} decides.
 */
@Command(name = "preflight", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Before a long job: doctor's host checks, a short sweep (about a minute), the path verdict from"
                + " NCCL's log, the gate against the matching baseline; one line PASS / DEGRADED / FAIL with the reason.",
        footer = "%nVerdict: FAIL of any step over DEGRADED over PASS; the line names the worst reason and how many more."
                + "%nA doctor error from a rule that degrades the path (e.g. SOCKET-DEFAULT-SLOW-NIC) is DEGRADED, any"
                + " other doctor error is FAIL (exit 3); a single process then skips the sweep, a rank with peers still"
                + " joins it so that they do not wait for it."
                + "%nExit codes: 0 PASS, 6 DEGRADED (doctor, regression or degraded path), 3 environment not ready"
                + " (doctor error), 4 run failed, 5 timeout/hang (FAIL), 2 usage.")
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

    @Option(names = "--no-doctor", description = "skip doctor's host checks before the sweep")
    boolean noDoctor;

    @Option(names = "--doctor-ignore", paramLabel = "ID", description = "leave out this doctor rule (repeatable; see ncclbench rules)")
    List<String> doctorIgnore = new ArrayList<>();

    @Mixin
    GateCommand.GateSettings settings;

    @Mixin
    GateOutputOptions outputs;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter e = spec.commandLine().getErr();
        // --json: stdout holds the one JSON document; the findings, the sweep's table and the verdict go to stderr
        PrintWriter human = outputs.json ? e : o;
        settings.options(); // a bad flag is exit 2 before a minute of sweeping
        Set<String> ignored = doctorIgnored();
        LaunchInfo launch = LaunchDetector.detect(System.getenv(), number("--rank", rank), number("--world-size", worldSize));
        List<Finding> doctor = null;
        String host = null;
        if (!noDoctor) {
            DoctorReport d = Doctor.run(new DoctorOptions(System.getenv(), null, null, null, settings.catalog, ignored,
                    FailOn.ERROR));
            doctor = d.findings();
            host = d.host();
            PreflightReport.printDoctor(host, doctor, human);
        }
        Preflight.Sweep sweep = null;
        GateReport gate = null;
        if (Preflight.skipSweep(doctor, launch.size())) {
            human.println("# preflight: doctor says this host is not ready: no sweep (fix it, or --doctor-ignore ID)");
        } else {
            Path json = runFolder().resolve("result.json");
            StringWriter sweepErr = new StringWriter();
            PrintWriter tee = new PrintWriter(new Tee(e, sweepErr), true);
            int code = Main.run(sweepArgs(json).toArray(String[]::new), human, tee);
            tee.flush();
            sweep = new Preflight.Sweep(code, lastLine(sweepErr.toString()));
            // no result: not rank 0 (its JSON is rank 0's to write), or the sweep failed before its first row
            if (Files.isRegularFile(json) && (code == ExitCode.OK.code || code == ExitCode.DEGRADED.code)) {
                gate = settings.judge(json.toString(), ResultInput.read(json), baseline, e);
                if (!outputs.json) {
                    GateText.write(gate, human);
                }
                html(json, gate);
            }
            removeIfEmpty(json.getParent());
        }
        PreflightReport r = PreflightReport.of(host, doctor, List.copyOf(ignored), sweep, gate);
        outputs.write(r, o);
        // every rank prints its own verdict: its doctor judged its own host (a Slurm prolog reads each node's)
        human.println(r.verdict().line());
        human.flush();
        return r.verdict().exitCode().code;
    }

    private Set<String> doctorIgnored() {
        for (String id : doctorIgnore) {
            if (!DoctorRules.book().knows(id)) {
                throw NcclbenchException.usage("--doctor-ignore " + id + ": no doctor rule has that id (see ncclbench rules)");
            }
        }
        return new LinkedHashSet<>(doctorIgnore);
    }

    private static Integer number(String flag, String v) {
        if (v == null) {
            return null;
        }
        try {
            return Integer.valueOf(v.trim());
        } catch (NumberFormatException ex) {
            throw NcclbenchException.usage(flag + " wants a whole number, got '" + v + "'");
        }
    }

    /** This preflight's own folder under --out (the sweep creates folders only under --out, not the --json's). */
    private Path runFolder() {
        OutputPaths.checkOutDir(out);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path dir = out.resolve("preflight-" + stamp + "-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(dir);
        } catch (IOException ex) {
            throw NcclbenchException.usage("--out " + out + ": cannot create " + dir + ": " + ex.getMessage());
        }
        return dir;
    }

    private static void removeIfEmpty(Path dir) {
        try (var entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException ex) {
            // left in place: an empty folder is harmless
        }
    }

    private void html(Path json, GateReport gate) {
        if (html != null) {
            PathInputs path = settings.path();
            ReportCommand.write(ReportData.of(List.of(new ReportData.Run("preflight", json.toString(),
                    ResultInput.read(json))), null, path.fabric(), path.socketFloor(),
                    settings.options().latencyBelow(), gate, "ncclbench preflight"), html, null, null);
        }
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
        // the sweep reads a catalog only to look --fabric up; without it the catalog is doctor's and the gate's
        add(a, "--catalog", settings.catalog == null || settings.fabric == null ? null : settings.catalog.toString());
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
