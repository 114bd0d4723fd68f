package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.BaselineFolder;
import dev.ncclbench.baseline.BaselineRecorder;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.results.ResultInput;
import dev.ncclbench.spec.Sizes;
import dev.ncclbench.output.OutputTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** `ncclbench baseline record|list|show`: runs kept as the reference the gate compares with. */
@Command(name = "baseline", mixinStandardHelpOptions = true,
        description = "Record runs as a baseline keyed by their topology fingerprint; list and show baselines.",
        subcommands = {BaselineCommand.Record.class, BaselineCommand.ListBaselines.class, BaselineCommand.Show.class})
public final class BaselineCommand implements Runnable {
    @Override
    public void run() {
        throw NcclbenchException.usage("baseline needs a subcommand: record, list or show (see 'ncclbench baseline"
                + " --help')");
    }

    @Command(name = "record", mixinStandardHelpOptions = true,
            description = "Store one or more runs of the same fingerprint (or one run with -N repeats) as a baseline.")
    static final class Record implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        /** This node: its name, for the NIC rates of a run made here. */
        @Mixin
        HostMixin host = new HostMixin();

        @Parameters(paramLabel = "RUN.json", arity = "1..*", description = "result JSON files or run folders")
        List<Path> runs;

        @Option(names = "--name", paramLabel = "NAME", description = "baseline name (default: BACKEND-NODESnRANKSr-FINGERPRINT)")
        String name;

        @Option(names = "--file", paramLabel = "FILE", description = "write the baseline to FILE instead of"
                + " <baseline-dir>/NAME.baseline.json (--out is its old name, still taken)")
        Path file;

        /** --out, --file's name before --out came to mean the folder a run is written under (sweep, fleet). */
        @Option(names = "--out", paramLabel = "FILE", hidden = true)
        Path oldName;

        @Mixin
        BaselineDirFlag dir = new BaselineDirFlag();

        @Option(names = "--force", description = "replace an existing baseline of that name (or --file)")
        boolean force;

        @Option(names = "--append", description = "add the runs to the existing baseline of that name (or --file)")
        boolean append;

        @Override
        public Integer call() {
            if (force && append) {
                throw NcclbenchException.usage("--force replaces the baseline, --append adds to it: give one");
            }
            Path given = RenamedFlag.value("--file", file, "--out", oldName, "files");
            OutputTarget.check(file != null || oldName == null ? "--file" : "--out", given);
            List<BaselineRecorder.Source> sources = new ArrayList<>();
            for (Path p : runs) {
                sources.add(new BaselineRecorder.Source(p.toString(), ResultInput.read(p)));
            }
            String thisHost = HostName.node(null, host.get());
            Baseline b = BaselineRecorder.record(sources, name, thisHost);
            BaselineStore store = new BaselineStore(BaselineFolder.of(dir.get()));
            Path target = given != null ? given : store.pathOf(b.name());
            if (append && Files.exists(target)) {
                b = BaselineRecorder.append(BaselineStore.read(target), target.toString(), sources, thisHost);
            } else if (append) {
                throw NcclbenchException.usage("--append: " + target + " does not exist (record it first, without"
                        + " --append)");
            } else if (!force && Files.exists(target)) {
                // a baseline of several runs silently replaced by one run is a gate that got noisier unseen
                throw NcclbenchException.usage("baseline " + target + " already exists; --append adds these runs to it,"
                        + " --force replaces it, or choose another --name");
            }
            store.write(target, b);
            PrintWriter w = spec.commandLine().getOut();
            w.printf(Locale.ROOT, "baseline %s: %d run%s, %d sizes, fingerprint %s (%s)%n", b.name(), b.runs().size(),
                    b.runs().size() == 1 ? "" : "s", b.entries().size(), b.fingerprintId(), b.fingerprint().summary());
            w.println("written to " + target);
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the baselines in the folder.")
    static final class ListBaselines implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        BaselineDirFlag dir = new BaselineDirFlag();

        @Override
        public Integer call() {
            PrintWriter w = spec.commandLine().getOut();
            BaselineStore store = new BaselineStore(BaselineFolder.of(dir.get()));
            List<Path> files = store.files();
            if (files.isEmpty()) {
                w.println("no baselines in " + store.dir() + " (record one: ncclbench baseline record RUN.json)");
                return 0;
            }
            w.printf(Locale.ROOT, "%-32s %-12s %4s %5s  %-20s  %s%n", "# name", "fingerprint", "runs", "sizes",
                    "created", "topology");
            for (Path p : files) {
                try {
                    Baseline b = BaselineStore.read(p);
                    w.printf(Locale.ROOT, "%-32s %-12s %4d %5d  %-20s  %s%n", b.name(), b.fingerprintId(),
                            b.runs().size(), b.entries().size(), b.createdAt(), b.fingerprint().summary());
                } catch (NcclbenchException e) {
                    w.println("# unreadable: " + e.getMessage());
                }
            }
            return 0;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show a baseline's fingerprint and statistics.")
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME|FILE", description = "a baseline name in the folder, or a file")
        String baseline;

        @Mixin
        BaselineDirFlag dir = new BaselineDirFlag();

        @Override
        public Integer call() {
            Baseline b = new BaselineStore(BaselineFolder.of(dir.get())).resolve(baseline);
            PrintWriter w = spec.commandLine().getOut();
            w.println("# baseline " + b.name() + ", recorded " + b.createdAt() + ", fingerprint " + b.fingerprintId());
            w.println("# " + b.fingerprint().summary());
            b.fingerprint().ncclEnv().forEach((k, v) -> w.println("#   env " + k + "=" + v));
            b.fingerprint().nics().forEach((k, v) -> w.println("#   interface " + k + (v.isEmpty() ? "" : " " + v)));
            b.fingerprint().measurement().forEach((k, v) -> w.println("#   measurement " + k + "=" + v));
            for (Baseline.Run r : b.runs()) {
                w.println("#   run " + r.file() + " started " + r.startedAt() + " (" + r.cycles() + " cycle"
                        + (r.cycles() == 1 ? "" : "s") + ")");
            }
            w.println("# pl: oop out-of-place, ip in-place (both: a baseline recorded before they were kept apart);"
                    + " times per call in us; busbw in GB/s at the median time");
            w.printf(Locale.ROOT, "%-14s %9s %-4s %6s %7s %10s %10s %10s %10s %10s  %s%n", "# collective", "size", "pl",
                    "runs", "samples", "min(us)", "p25(us)", "median(us)", "p75(us)", "busbw", "path");
            for (Baseline.Entry e : b.entries()) {
                Baseline.Stats s = e.stats();
                w.printf(Locale.ROOT, "%-14s %9s %-4s %6d %7d %10.1f %10.1f %10.1f %10.1f %10.4f  %s%n", e.collective(),
                        Sizes.human(e.size()), e.inPlace() == null ? "both" : e.inPlace() ? "ip" : "oop", s.groups(),
                        s.count(), s.minUs(), s.p25Us(), s.medianUs(), s.p75Us(), s.busbwMedian(),
                        e.paths() == null || e.paths().isEmpty() ? "" : e.paths().get(e.paths().size() - 1));
            }
            return 0;
        }
    }
}
