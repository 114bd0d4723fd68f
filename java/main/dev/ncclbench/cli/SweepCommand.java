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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** `ncclbench sweep`: nccl-tests' flags with their letters and meanings ({@link SweepOptions}). */
@Command(name = "sweep", sortOptions = false, versionProvider = VersionProvider.class,
        description = "Run collectives over a range of sizes and print the nccl-tests table.",
        footer = "%nSizes take binary K, M, G suffixes (1K = 1024); fractions are allowed (1.5G).")
public final class SweepCommand implements Callable<Integer> {

    @Mixin
    HostMixin host = new HostMixin();

    @Spec
    CommandSpec spec;

    @Mixin
    HelpFlags helpFlags = new HelpFlags();

    @Mixin
    SweepOptions options = new SweepOptions(SweepProfile.SWEEP);

    @Option(names = "--json", paramLabel = "FILE", description = "JSON result file (default: <out>/<run>/result.json)")
    Path json;

    @Option(names = "--force", description = "replace an existing --json file (without it an earlier run's file is refused)")
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
        OutputTarget.refuseExisting("--json", json, force, "--force");
        List<String> argv = new ArrayList<>(List.of("ncclbench"));
        argv.addAll(spec.root().commandLine().getParseResult().originalArgs());
        SweepRunner runner = new SweepRunner(resolve(), launch(), path(), spec.commandLine().getOut(),
                spec.commandLine().getErr(), host.get()).withCommandLine(argv);
        try {
            return runner.run().code;
        } finally {
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
        return options.spec(json, host.get().get(Variable.NCCL_SOCKET_IFNAME));
    }
}
