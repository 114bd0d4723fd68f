package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.env.EnvReport;
import dev.ncclbench.env.EnvRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/** `ncclbench env`: what was found where (NCCL, CUDA runtime, driver, GPUs), and what is missing. Loads no CUDA. */
@Command(name = "env", mixinStandardHelpOptions = true,
        description = "Show the NCCL, CUDA runtime, NVIDIA driver and GPUs found, where each came from, and what is missing.")
public final class EnvCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostMixin host = new HostMixin();

    @Mixin
    JsonOutput json = new JsonOutput();

    @Mixin
    RuleFilter rules;

    @Override
    public Integer call() throws Exception {
        json.check(Map.of(), Map.of());
        EnvReport r = EnvReport.collect(host.get(), rules.ignoredIn(EnvRules.book()));
        PrintWriter out = spec.commandLine().getOut();
        if (!json.onStdout()) {
            r.write(out);
            out.flush();
        }
        json.write(r::json, out);
        // like probe: something needed is missing, so this machine is not ready (the list above says what)
        return r.missing().isEmpty() ? 0 : ExitCode.ENVIRONMENT.code;
    }
}
