package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Missing;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.ProbeResult;
import dev.ncclbench.env.ProbeRunner;
import dev.ncclbench.env.Variable;
import dev.ncclbench.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** `ncclbench probe`: asks the real NCCL, in a child process, which interface it will bootstrap on. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "Ask the installed NCCL (no GPU needed) for its version and the interface it bootstraps on.")
public final class ProbeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    HostMixin host = new HostMixin();

    @Option(names = "--lib", paramLabel = "PATH", description = "libnccl.so.2 to probe (default: the one `ncclbench env` finds)")
    Path lib;

    @Mixin
    JsonOutput json = new JsonOutput();

    @Override
    public Integer call() throws Exception {
        json.check(lib == null ? Map.of() : Map.of("the library (--lib)", lib), Map.of());
        PrintWriter out = spec.commandLine().getOut();
        Path library = lib;
        if (library == null) {
            NativeLibraries.Found f = host.get().libraries().nccl();
            if (!f.present()) {
                throw new NcclbenchException(ExitCode.ENVIRONMENT, "no NCCL: libnccl.so.2 not found; "
                        + Missing.ncclSourcesLine());
            }
            library = f.path();
        }
        ProbeResult r = ProbeRunner.probe(library, host.get());
        json.write(() -> Json.prettyText(r.document()), out);
        if (!json.onStdout()) {
            out.println("library     " + (r.loadedPath() != null ? r.loadedPath() : r.library()));
            out.println("loaded      " + r.loaded() + (r.dlError() != null ? " (" + r.dlError() + ")" : ""));
            out.println("version     " + (r.versionString() == null ? "?" : r.versionString()));
            out.println("unique id   " + r.resultName() + " (" + r.uniqueIdStatus() + ")"
                    + (r.errorString() == null ? "" : ": " + r.errorString()));
            if (r.lastError() != null && !r.lastError().isBlank()) {
                out.println("last error  " + r.lastError());
            }
            out.println("bootstrap   " + (r.bootstrapInterface() == null ? "none" : r.bootstrapInterface() + " " + r.bootstrapAddress()));
            for (String w : r.warnings()) {
                out.println("NCCL WARN   " + w);
            }
        }
        out.flush();
        if (r.problem() != null) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "the probe could not run: " + r.problem());
        }
        if (!r.loaded()) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "libnccl.so.2 at " + library + " cannot be loaded: " + r.dlError());
        }
        if (r.bootstrapFailed()) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, r.bootstrapFailure(host.get().get(Variable.NCCL_SOCKET_IFNAME)));
        }
        return 0;
    }
}
