package dev.ncclbench.cli;

import dev.ncclbench.env.Variable;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.launch.LaunchOptions;
import dev.ncclbench.output.OutputTarget;
import dev.ncclbench.report.RunReport;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;
import dev.ncclbench.diagnosis.RouteInputs;
import dev.ncclbench.diagnosis.RouteOptions;
import dev.ncclbench.sweep.SweepRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** `ncclbench sweep`: nccl-tests' flags with their letters and meanings ({@link SweepOptions}). */
@Command(name = "sweep", sortOptions = false, versionProvider = VersionProvider.class,
        description = "Run collectives over a range of sizes and print the nccl-tests table.",
        footer = {"%nSizes take binary K, M, G suffixes (1K = 1024); fractions are allowed (1.5G).",
                "--json's default is <out>/<run>/result.json; with --json - the result is kept there too and printed on"
                        + " standard output when the run ends, and the table goes to standard error."})
public final class SweepCommand implements Callable<Integer> {

    @Mixin
    HostMixin host = new HostMixin();

    @Spec
    CommandSpec spec;

    @Mixin
    HelpFlags helpFlags = new HelpFlags();

    @Mixin
    SweepOptions options = new SweepOptions(SweepProfile.SWEEP);

    /** The result file (default: in the run's folder), or '-': the result on stdout, the table on stderr. */
    @Mixin
    JsonOutput json = new JsonOutput();

    @Option(names = "--force", description = "replace an existing --json file (without it an earlier run's file is"
            + " refused; a file that is not JSON is refused either way)")
    boolean force;

    @Option(names = "--no-progress", description = "No progress bar, even on a terminal")
    boolean noProgress;

    @Mixin
    FabricFlags fabricFlags = new FabricFlags();

    @Mixin
    SocketFloorFlag floor = new SocketFloorFlag();

    @Option(names = "--html", paramLabel = "FILE", description = "Also write the HTML report of this run (as ncclbench report --html)")
    Path html;

    @Override
    public Integer call() {
        // the outputs before anything runs: a minute of measuring is never lost to a bad path or an earlier file
        OutputTarget.check("--html", html);
        // every rank asks: a file there is there for each of them (rank 0's folder is checked by the runner)
        json.refuseNotJson();
        OutputTarget.refuseExisting(JsonOutput.FLAG, json.file(), force, "--force");
        List<String> argv = new ArrayList<>(List.of("ncclbench"));
        argv.addAll(spec.root().commandLine().getParseResult().originalArgs());
        PrintWriter out = spec.commandLine().getOut();
        // --json -: standard output holds the result alone, so the table goes to standard error
        SweepRunner runner = new SweepRunner(resolve(), launch(), path(), json.onStdout() ? spec.commandLine().getErr()
                : out, spec.commandLine().getErr(), host.get()).withCommandLine(argv);
        try {
            return runner.run().code;
        } finally {
            if (json.onStdout()) {
                // rank 0 wrote it (the others have no result file), a failed run's rows included
                runner.resultFile().filter(Files::isRegularFile).ifPresent(f -> JsonOutput.print(f, out));
            }
            if (html != null) {
                // the same HTML as `ncclbench report RUN.json --html F`, even after a failed run's rows
                runner.resultFile().filter(Files::isRegularFile).ifPresent(f -> RunReport.htmlFor(f, html,
                        fabricFlags.fabric, fabricFlags.catalog, floor.socketFloor, HostName.node(null, host.get()),
                        spec.commandLine().getErr()));
            }
        }
    }

    LaunchOptions launch() {
        return options.launch(!noProgress);
    }

    RouteInputs path() {
        return RouteOptions.resolve(fabricFlags.fabric, fabricFlags.catalog, floor.socketFloor);
    }

    /** The flags as the RunSpec the sweep runs (exit 2 when they do not go together). */
    RunSpec resolve() {
        return options.spec(json.file(), host.get().get(Variable.NCCL_SOCKET_IFNAME));
    }
}
