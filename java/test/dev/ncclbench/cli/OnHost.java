package dev.ncclbench.cli;

import dev.ncclbench.env.Host;
import picocli.CommandLine;

import java.util.Map;

/**
 * A command as {@link Main} builds it, under a root command that holds a test's own host: how a test parses one
 * command's flags and calls it without the JVM's environment ({@link HostMixin} reaches the host through the root).
 */
final class OnHost {
    private OnHost() {
    }

    /** The command {@code name} (sweep, preflight, ...) on a host whose environment is {@code env}. */
    static CommandLine command(String name, Map<String, String> env) {
        CommandLine root = new CommandLine(new RootCommand(Host.of(env)));
        PreflightCommand.acceptFlagsAsSweepArgs(root.getSubcommands().get("preflight"));
        return root.getSubcommands().get(name);
    }

    /** {@link #command}'s object with {@code args} parsed, from the root as the command line parses them. */
    static <T> T parsed(String name, Map<String, String> env, String... args) {
        CommandLine root = command(name, env).getParent();
        String[] all = new String[args.length + 1];
        all[0] = name;
        System.arraycopy(args, 0, all, 1, args.length);
        root.parseArgs(all);
        return root.getSubcommands().get(name).getCommand();
    }
}
