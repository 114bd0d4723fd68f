package dev.ncclbench.preflight;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.doctor.Doctor;
import dev.ncclbench.doctor.DoctorOptions;
import dev.ncclbench.doctor.DoctorReport;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.GateText;
import dev.ncclbench.launch.LaunchDetector;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.report.ReportData;
import dev.ncclbench.report.RunReport;
import dev.ncclbench.results.ResultInput;
import dev.ncclbench.results.RunFolder;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;
import dev.ncclbench.diagnosis.RouteInputs;
import dev.ncclbench.sweep.SweepRunner;
import dev.ncclbench.env.Host;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The steps of `ncclbench preflight`: doctor on this host, the short sweep with its log reading and path verdict,
 * then the gate against the matching baseline (or the curve check alone); {@link Preflight} decides the verdict.
 */
public final class PreflightRun {
    private final PrintWriter human;
    private final PrintWriter err;
    private final Host host;

    /**
     * @param human where doctor's findings, the sweep's table and the gate's text go (stderr with --json)
     * @param err   where the sweep's one-line notes go
     * @param host  the machine, as the command line built it: doctor judges it, the sweep runs on it
     */
    public PreflightRun(PrintWriter human, PrintWriter err, Host host) {
        this.human = human;
        this.err = err;
        this.host = host;
    }

    /**
     * What the preflight found.
     *
     * @param resultFile the sweep's result JSON, when this rank wrote one (rank 0 of a sweep that measured rows)
     */
    public record Outcome(PreflightReport report, Optional<Path> resultFile) {
        public ExitCode exitCode() {
            return report.verdict().exitCode();
        }

        public String reason() {
            return report.verdict().reason();
        }
    }

    public Outcome run(PreflightRequest request) {
        LaunchInfo launch = LaunchDetector.detect(host, request.launch().rank(), request.launch().worldSize());
        List<Finding> doctor = null;
        String hostName = null;
        if (request.doctor()) {
            DoctorReport d = Doctor.run(new DoctorOptions(host, null, null, null, request.catalog(),
                    request.doctorIgnored(), FailOn.ERROR));
            doctor = d.findings();
            hostName = d.host();
            PreflightReport.printDoctor(hostName, doctor, human);
        }
        Preflight.Sweep sweep = null;
        GateReport gate = null;
        Path resultFile = null;
        if (Preflight.skipSweep(doctor, launch.size())) {
            human.println("# preflight: doctor says this host is not ready: no sweep (fix it, or --doctor-ignore ID)");
        } else {
            Path json = RunFolder.createUnder(request.sweep().outputs().outDir(), "preflight").resolve("result.json");
            sweep = sweep(request, request.sweep().withOutputs(new RunSpec.Outputs(json, request.sweep().outputs().outDir())), launch);
            // no result: not rank 0 (its JSON is rank 0's to write), or the sweep failed before its first row
            if (Files.isRegularFile(json)
                    && (sweep.exitCode() == ExitCode.OK.code || sweep.exitCode() == ExitCode.DEGRADED.code)) {
                resultFile = json;
                gate = request.gate().judge(json.toString(), ResultInput.read(json), request.baseline());
                if (request.gateText()) {
                    GateText.writeTable(gate, human); // its verdict is in preflight's one line
                }
                html(request, json, gate);
            }
            removeIfEmpty(json.getParent());
        }
        PreflightReport r = PreflightReport.of(hostName, doctor, List.copyOf(request.doctorIgnored()), sweep, gate);
        return new Outcome(r, Optional.ofNullable(resultFile));
    }

    /** The sweep, its failure as its exit code and reason (said on err as `ncclbench sweep` says it). */
    private Preflight.Sweep sweep(PreflightRequest request, RunSpec spec, LaunchInfo launch) {
        try {
            SweepRunner runner = new SweepRunner(spec, request.launch(), request.sweepPath(), human, err, host)
                    .withCommandLine(request.commandLine()).withProfile(SweepProfile.PREFLIGHT);
            return new Preflight.Sweep(runner.run().code, null);
        } catch (NcclbenchException e) {
            err.println("ncclbench: " + e.getMessage());
            return new Preflight.Sweep(e.exitCode().code, e.getMessage());
        } catch (RuntimeException e) {
            // as the command line says any internal error, with the stack trace on request
            err.println("ncclbench: internal error: " + e);
            if (host.debug()) {
                e.printStackTrace(err);
            } else {
                err.println("(set NCCLBENCH_DEBUG=1 for the stack trace)");
            }
            return new Preflight.Sweep(ExitCode.INTERNAL.code, "internal error: " + e);
        } finally {
            human.flush();
            err.flush();
        }
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

    private void html(PreflightRequest request, Path json, GateReport gate) {
        if (request.html() != null) {
            RouteInputs path = request.gate().path();
            RunReport.write(ReportData.of(List.of(new ReportData.Run("preflight", json.toString(),
                    ResultInput.read(json))), null, path.fabric(), path.socketFloor(),
                    request.gate().options().latencyBelow(), gate, "ncclbench preflight"), request.html(), null, null);
        }
    }
}
