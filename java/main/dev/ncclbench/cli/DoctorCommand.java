package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.doctor.Doctor;
import dev.ncclbench.doctor.DoctorOptions;
import dev.ncclbench.doctor.DoctorReport;
import dev.ncclbench.doctor.DoctorText;
import dev.ncclbench.doctor.HostComparison;
import dev.ncclbench.env.Missing;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.output.Json;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** `ncclbench doctor`: pre-flight host checks and NCCL's interface choice, predicted and proven. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Check this host (or a saved snapshot, or a captured tree) for what makes NCCL fail or fall back:"
                + " the interface it will bind, the rail table (each GPU's NIC port: state, rate, link layer, NCCL_IB_HCA),"
                + " IB ports, device access, memlock, /dev/shm, peer memory, ACS, NCCL_ settings.")
public final class DoctorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The report (findings, rails, bootstrap, socket_interfaces, probe), or with --compare the comparison. */
    @Mixin
    JsonOutput json = new JsonOutput();

    @Option(names = "--save", paramLabel = "FILE", description = "Also write the host snapshot (the evidence) to FILE")
    Path save;

    /** What to judge instead of this host: one source at most. */
    @ArgGroup(exclusive = true)
    Source source = new Source();

    static final class Source {
        @Option(names = "--snapshot", paramLabel = "FILE", description = "Judge a saved snapshot instead of this host")
        Path snapshot;

        @Option(names = "--captured", paramLabel = "DIR", description = "Judge a tree captured by"
                + " scripts/capture-host.sh (--root is its old name, still taken)")
        Path captured;

        /** --captured's name before: sweep's and preflight's --root is nccl-tests' root rank. */
        @Option(names = "--root", paramLabel = "DIR", hidden = true)
        Path oldName;

        Path captured() {
            return captured != null ? captured : oldName;
        }

        @Option(names = "--compare", arity = "2..*", paramLabel = "FILE", description = "Cross-node findings over saved"
                + " snapshots: versions, interfaces, NCCL_ settings, and rail N of each node against rail N of the others")
        List<Path> compare;
    }

    @Option(names = "--probe-nccl", negatable = true, description = "Run the real libnccl.so.2's bootstrap in a child"
            + " and compare (default: on when NCCL is found, live hosts only)")
    Boolean probe;

    @Option(names = "--catalog", paramLabel = "FILE", description = "Fabric catalog whose site section declares link rates"
            + " (default: results/baselines/fabric-catalog.txt of ncclbench's checkout or bundle, else the built-in copy)")
    Path catalog;

    @Option(names = "--fail-on", paramLabel = "LEVEL", converter = Choices.FailOnChoice.class,
            completionCandidates = Choices.FailOnNames.class,
            description = "Lowest severity that exits 3: ${COMPLETION-CANDIDATES} (default: error)")
    FailOn failOn = FailOn.ERROR;

    @Mixin
    RuleFilter rules = new RuleFilter();

    /** The host judged live: its environment, its libraries (the probe child gets the same environment). */
    @Mixin
    HostMixin host = new HostMixin();

    @Override
    public Integer call() throws Exception {
        FailOn fail = failOn;
        Set<String> ignored = rules.ignored();
        Path snapshot = source.snapshot;
        Path root = source.captured();
        List<Path> compare = source.compare;
        if (Boolean.TRUE.equals(probe) && (snapshot != null || root != null || compare != null)) {
            throw NcclbenchException.usage("--probe-nccl runs the real NCCL on this host: it cannot judge a saved or captured one");
        }
        if (Boolean.TRUE.equals(probe) && !host.get().libraries().nccl().present()) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "--probe-nccl: no libnccl.so.2 found ("
                    + Missing.ncclSourcesLine() + ")");
        }
        Map<String, Path> inputs = new LinkedHashMap<>();
        inputs.put("the snapshot (--snapshot)", snapshot);
        inputs.put("the fabric catalog (--catalog)", catalog);
        for (int i = 0; compare != null && i < compare.size(); i++) {
            inputs.put("snapshot " + (i + 1) + " of --compare", compare.get(i));
        }
        Map<String, Path> saved = new LinkedHashMap<>();
        saved.put("--save", save);
        json.check(inputs, saved);
        PrintWriter out = spec.commandLine().getOut();
        if (compare != null) {
            return compare(out, compare, ignored, fail);
        }
        DoctorOptions o = new DoctorOptions(host.get(), root, snapshot, probe, catalog, ignored, fail);
        DoctorReport r = Doctor.run(o, save);
        if (!json.onStdout()) {
            DoctorText.print(r, out, colour(host.get()));
        }
        json.write(() -> Json.prettyText(r), out);
        return verdict(r.findings(), fail);
    }

    private int compare(PrintWriter out, List<Path> compare, Set<String> ignored, FailOn fail) {
        HostComparison c = HostComparison.of(compare, ignored);
        if (!json.onStdout()) {
            c.write(out);
            out.flush();
        }
        json.write(() -> c.json(fail), out);
        return verdict(c.findings(), fail);
    }

    /** 0, or exit 3 with the worst finding in one line on stderr (the table on stdout has the rest). */
    private static int verdict(List<Finding> findings, FailOn fail) {
        if (!fail.fails(findings)) {
            return ExitCode.OK.code;
        }
        Finding worst = findings.get(0);
        long n = findings.stream().filter(f -> f.severity().compareTo(fail.threshold) >= 0).count();
        throw new NcclbenchException(ExitCode.ENVIRONMENT, "doctor: " + n + " finding(s) at " + fail.name().toLowerCase()
                + " level or worse; first: " + worst.ruleId() + ": " + worst.title()
                + (worst.remedy().isEmpty() ? "" : "; fix: " + worst.remedy().get(0)));
    }

    /** Colour on a terminal only: never when piped, never with NO_COLOR. */
    private static boolean colour(Host host) {
        return System.console() != null && !host.has(Variable.NO_COLOR) && !"dumb".equals(host.get(Variable.TERM));
    }
}
