package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.env.Host;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** The thin root: subcommands do the work. */
@Command(name = "ncclbench",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Sweep NCCL or socket collectives, compute algbw and busbw as nccl-tests does,"
                + " and say which path the bytes took.",
        subcommands = {
                SweepCommand.class,
                ExplainCommand.class,
                RulesCommand.class,
                FleetCommand.class,
                EnvCommand.class,
                ProbeCommand.class,
                DoctorCommand.class,
                RecoverCommand.class,
                ProbeChildCommand.class,
                BaselineCommand.class,
                GateCommand.class,
                ReportCommand.class,
                PreflightCommand.class,
                HelpCommand.class,
        }
)
public final class RootCommand implements Callable<Integer> {
    private final Host host;

    @Spec
    CommandSpec spec;

    /** @param host the host every command runs on ({@link HostMixin} reaches it) */
    public RootCommand(Host host) {
        this.host = host;
    }

    Host host() {
        return host;
    }

    /** Bare `ncclbench`: the usage with every command, on stderr, and exit 2 (a command is needed). */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        spec.commandLine().getErr().flush();
        return ExitCode.USAGE.code;
    }
}
