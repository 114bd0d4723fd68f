package dev.ncclbench.cli;

import dev.ncclbench.env.ProbeChild;
import dev.ncclbench.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Hidden: the child process of the NCCL probe (dev.ncclbench.env.ProbeRunner). Loads NCCL, asks it for
 * its version and a unique id, prints one JSON line, and exits: NCCL's state dies with the process.
 */
@Command(name = "probe-child", hidden = true, description = "Internal: one NCCL probe; prints one JSON line.")
public final class ProbeChildCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--lib", paramLabel = "PATH", description = "libnccl.so.2 to load (default: the loader's search path)")
    Path lib;

    @Override
    public Integer call() throws Exception {
        spec.commandLine().getOut().println(Json.mapper().writeValueAsString(ProbeChild.run(lib)));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
