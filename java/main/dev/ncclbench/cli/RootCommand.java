package dev.ncclbench.cli;

import picocli.CommandLine.Command;

/** The thin root: subcommands do the work. */
@Command(name = "ncclbench",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Sweep NCCL or socket collectives, compute algbw and busbw as nccl-tests does,"
                + " and say which path the bytes took.",
        subcommands = {
                SweepCommand.class,
                ExplainCommand.class,
                EnvCommand.class,
                ProbeCommand.class,
                DoctorCommand.class,
                ProbeChildCommand.class,
        },
        footer = "%n" + "Exit codes:%n"
                + "  0  ok%n"
                + "  1  internal error%n"
                + "  2  usage error (bad flag, bad size, unknown collective or type)%n"
                + "  3  environment not ready (no NCCL, no GPU, bootstrap would fail)%n"
                + "  4  run failed (wrong results, rank lost, NCCL error)%n"
                + "  5  timeout / hang%n"
                + "  6  regression against baseline or degraded path%n")
public final class RootCommand implements Runnable {
    @Override
    public void run() {
        throw dev.ncclbench.NcclbenchException.usage("a subcommand is needed: sweep, env, explain (see --help)");
    }

}
