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
                RulesCommand.class,
                FleetCommand.class,
                EnvCommand.class,
                ProbeCommand.class,
                ProbeChildCommand.class,
        },
        footer = "%nExamples:%n  ncclbench sweep                      all_reduce from 8 B to 8 GB (sockets without a GPU)%n"
                + "  ncclbench sweep -b 1M -e 64M -f 2    nccl-tests' flags%n"
                + "  ncclbench explain nccl.*.log         which path the bytes took, from NCCL's own log")
public final class RootCommand implements Runnable {
    @Override
    public void run() {
        throw dev.ncclbench.NcclbenchException.usage("a subcommand is needed: sweep, env, explain, rules (see --help)");
    }

}
