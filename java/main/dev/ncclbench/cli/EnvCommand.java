package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.EnvReport;
import dev.ncclbench.env.EnvRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** `ncclbench env`: what was found where (NCCL, CUDA runtime, driver, GPUs), and what is missing. Loads no CUDA. */
@Command(name = "env", mixinStandardHelpOptions = true,
        description = "Show the NCCL, CUDA runtime, NVIDIA driver and GPUs found, where each came from, and what is missing.")
public final class EnvCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print as JSON")
    boolean json;

    @Option(names = "--ignore", paramLabel = "ID", description = "Leave out this rule (repeatable; see ncclbench"
            + " rules): it is no longer listed as missing nor counted for the exit code")
    List<String> ignore = List.of();

    @Override
    public Integer call() throws Exception {
        for (String id : ignore) {
            if (!EnvRules.book().knows(id)) {
                throw NcclbenchException.usage("--ignore " + id + ": no env rule has that id (see ncclbench rules)");
            }
        }
        EnvReport r = EnvReport.collect(System.getenv("NCCL_SOCKET_IFNAME"), Set.copyOf(ignore));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(r.json());
        } else {
            r.write(out);
        }
        out.flush();
        // like probe: something needed is missing, so this machine is not ready (the list above says what)
        return r.missing().isEmpty() ? 0 : ExitCode.ENVIRONMENT.code;
    }
}
