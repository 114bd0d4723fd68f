package dev.ncclbench.diagnosis;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.output.Json;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * `explain DIR` over a folder of run folders (results/runs/, each with its result.json and NCCL logs): one verdict per
 * run, never one verdict of every run's logs read as one job. The exit code is the worst run's: a failed run over a
 * degraded one over one without evidence over a healthy one.
 *
 * @param folder  the folder named
 * @param runs    one explanation per run folder, by name; logs outside any run folder are one more entry
 * @param skipped what the reader left out, one line each
 */
public record RunsExplanation(Path folder, List<Run> runs, List<String> skipped) {
    public static final String KIND = "ncclbench.explain-runs";
    public static final int SCHEMA_VERSION = 1;

    /** One run folder and its explanation. */
    public record Run(String run, Explanation explanation) {
    }

    public RunsExplanation {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }

    /**
     * The runs of {@code inputs} when it is one folder holding two or more run folders (a folder with a result.json);
     * empty otherwise, when the inputs are one job's logs.
     */
    public static Optional<RunsExplanation> of(List<String> inputs, Set<String> ignored) {
        if (inputs.size() != 1 || inputs.get(0).equals("-") || !Files.isDirectory(Path.of(inputs.get(0)))) {
            return Optional.empty();
        }
        Path dir = Path.of(inputs.get(0));
        List<Path> runFolders = new ArrayList<>();
        List<Path> others = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                if (p.getFileName().toString().startsWith(".")) {
                    continue;
                }
                (Files.isDirectory(p) && isRunFolder(p) ? runFolders : others).add(p);
            }
        } catch (IOException e) {
            throw NcclbenchException.usage(dir + ": cannot list: " + e.getMessage());
        }
        if (runFolders.size() < 2) {
            return Optional.empty();
        }
        List<Run> runs = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Path r : runFolders) {
            Explanation x = Explanation.of(List.of(r.toString()), java.io.InputStream.nullInputStream(), ignored);
            runs.add(new Run(r.getFileName().toString(), x));
            // a run folder holds its result files beside the logs: only what else was left out is worth a line
            x.skipped().stream().filter(line -> !line.contains("results or reports by their names"))
                    .forEach(line -> skipped.add(r.getFileName() + ": " + line));
        }
        List<String> loose = others.stream().filter(RunsExplanation::holdsFiles).map(Path::toString).toList();
        if (!loose.isEmpty()) {
            Explanation x = Explanation.of(loose, java.io.InputStream.nullInputStream(), ignored);
            if (x.evidence().counts().ncclLines() > 0) {
                runs.add(new Run("(outside the run folders)", x));
            }
        }
        return Optional.of(new RunsExplanation(dir, runs, skipped));
    }

    /** A run folder: what ncclbench sweep writes, its result file beside the NCCL logs. */
    static boolean isRunFolder(Path d) {
        return Files.isRegularFile(d.resolve("result.json")) || Files.isRegularFile(d.resolve("result.json.partial"));
    }

    private static boolean holdsFiles(Path p) {
        if (Files.isRegularFile(p)) {
            return true;
        }
        try (Stream<Path> s = Files.walk(p, 3)) {
            return s.anyMatch(Files::isRegularFile);
        } catch (IOException e) {
            return false;
        }
    }

    /** Worst first: a failed run, then degraded, then no evidence, then healthy. */
    private static int rank(Health h) {
        return switch (h) {
            case INIT_FAILED, RUN_FAILED -> 0;
            case DEGRADED -> 1;
            case NO_EVIDENCE -> 2;
            case HEALTHY -> 3;
        };
    }

    /** The worst run's exit code; when every run is healthy, the first one {@code failOn} fails. */
    public int exitCode(FailOn failOn) {
        int worst = worst().explanation().exitCode(failOn);
        return worst != ExitCode.OK.code ? worst : runs.stream().filter(RunsExplanation::logged)
                .mapToInt(r -> r.explanation().exitCode(failOn))
                .filter(c -> c != ExitCode.OK.code).findFirst().orElse(ExitCode.OK.code);
    }

    /** The worst run of those that kept an NCCL log (a socket-backend run keeps none); any run when none did. */
    private Run worst() {
        List<Run> logged = runs.stream().filter(RunsExplanation::logged).toList();
        return (logged.isEmpty() ? runs : logged).stream().min((a, b) -> Integer.compare(
                rank(a.explanation().diagnosis().health()), rank(b.explanation().diagnosis().health()))).orElseThrow();
    }

    private static boolean logged(Run r) {
        return r.explanation().evidence().counts().ncclLines() > 0;
    }

    /** One line a run, then one line for all. */
    public void write(PrintWriter out, FailOn failOn) {
        int width = runs.stream().mapToInt(r -> r.run().length()).max().orElse(0);
        Map<String, Integer> byHealth = new LinkedHashMap<>();
        for (Run r : runs) {
            Diagnosis d = r.explanation().diagnosis();
            String health = logged(r) ? words(d.health()) : "no NCCL log";
            byHealth.merge(health, 1, Integer::sum);
            out.printf(Locale.ROOT, "%-" + width + "s  %-16s %s (%s, exit %d): %s%n", r.run(), d.path().id, health,
                    d.confidence(), r.explanation().exitCode(failOn), d.reason());
        }
        List<String> parts = new ArrayList<>();
        byHealth.forEach((h, n) -> parts.add(n + " " + h));
        out.printf(Locale.ROOT, "%d run folder(s) in %s: %s; exit %d (the worst run's); explain one of them for its"
                + " findings%n", runs.size(), folder, String.join(", ", parts), exitCode(failOn));
    }

    private static String words(Health h) {
        return h.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** `explain DIR --json` over run folders: each run's summary, and the exit code. */
    public String json(FailOn failOn) {
        List<RunSummary> rs = runs.stream().map(r -> new RunSummary(r.run(), ExplainSummary.of(r.explanation()
                .evidence(), r.explanation().diagnosis()), r.explanation().diagnosis().reason())).toList();
        return Json.prettyText(new Document(KIND, SCHEMA_VERSION, folder.toString(), exitCode(failOn), rs));
    }

    /** One run in the JSON: its folder's name, its summary (as `explain --json`'s) and the reason. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RunSummary(String run, ExplainSummary summary, String reason) {
    }

    /** The whole document. */
    @JsonPropertyOrder({"kind", "schema_version", "folder", "exit_code", "runs"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, String folder, int exitCode, List<RunSummary> runs) {
    }

}
