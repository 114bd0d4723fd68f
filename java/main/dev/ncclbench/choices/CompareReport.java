package dev.ncclbench.choices;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.nccllog.NotAnNcclLogException;
import dev.ncclbench.output.Json;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * explain --compare: two sides (a log, a folder of logs, a run folder), what NCCL chose on each and what changed.
 * The JSON form is the document kind {@value #KIND} (docs/schemas/explain-compare.schema.json).
 *
 * @param before     the first side
 * @param after      the second side
 * @param comparison what changed
 * @param skipped    files found in the folders that were not NCCL logs, one sentence each
 */
public record CompareReport(Side before, Side after, Comparison comparison, List<String> skipped) {
    public static final String KIND = "ncclbench.explain-compare";
    public static final int SCHEMA_VERSION = 1;

    /**
     * @param path     as given
     * @param logFiles the files the choices were read from
     * @param choices  what NCCL chose there
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Side(String path, List<String> logFiles, NcclChoices choices) {
    }

    /** Reads both sides as explain reads its inputs; a named file that is not an NCCL log throws. */
    /** {@link #read}, with a file that is not a log or cannot be read as one sentence and exit 2. */
    public static CompareReport of(Path before, Path after) {
        try {
            return read(before, after);
        } catch (NotAnNcclLogException e) {
            throw NcclbenchException.usage(e.getMessage());
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot read [" + before + ", " + after + "]: " + e.getMessage());
        }
    }

    public static CompareReport read(Path before, Path after) throws IOException {
        NcclLogReader rb = new NcclLogReader().read(before);
        NcclLogReader ra = new NcclLogReader().read(after);
        Side b = side(before, rb.evidence());
        Side a = side(after, ra.evidence());
        List<String> skipped = new java.util.ArrayList<>(rb.skipped());
        skipped.addAll(ra.skipped());
        boolean anyB = rb.evidence().counts().ncclLines() > 0;
        boolean anyA = ra.evidence().counts().ncclLines() > 0;
        Comparison c = anyB && anyA ? ChoiceDiff.compare(b.choices(), a.choices())
                : Comparison.unknown((anyB ? "AFTER " + after : "BEFORE " + before)
                + " holds no NCCL log lines, so what NCCL chose there is unknown");
        return new CompareReport(b, a, c, skipped);
    }

    private static Side side(Path p, NcclLogEvidence e) {
        // the files NCCL lines came from: a run folder's result.json is read and found not to be a log
        java.util.Set<String> logs = new java.util.HashSet<>();
        e.processes().forEach(pr -> logs.add(pr.firstLine().file()));
        List<String> files = e.sources().stream().filter(logs::contains).toList();
        // lines without a host:pid prefix (a pasted grep) name no process: the files read are the log then
        return new Side(p.toString(), files.isEmpty() && e.counts().ncclLines() > 0 ? e.sources() : files,
                ChoicesReader.of(e));
    }

    /** The document as written by --json. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"kind", "schema_version", "before", "after", "known", "job", "changes", "same", "unknown"})
    record Document(String kind, int schemaVersion, Side before, Side after, boolean known, String job,
                    List<Change> changes, List<String> same, List<String> unknown) {
    }

    public String json() {
        Comparison c = comparison;
        return Json.prettyText(new Document(KIND, SCHEMA_VERSION, before, after, c.known(), c.job(), c.changes(),
                c.same(), c.unknown()));
    }

    /** The text form: the job first when it differs, then the changes heaviest first, then what stayed the same. */
    public void write(PrintWriter out) {
        out.println("before: " + describe(before));
        out.println("after:  " + describe(after));
        Comparison c = comparison;
        if (c.job() != null) {
            out.println(c.job());
        }
        if (!c.known()) {
            out.println(c.sameLine());
            return;
        }
        if (c.changes().isEmpty()) {
            out.println("no change: NCCL decided the same in both, as far as the logs say");
        } else {
            out.println(c.changes().size() + (c.changes().size() == 1 ? " change" : " changes")
                    + ", most consequential first:");
            int i = 1;
            for (Change ch : c.changes()) {
                out.println("  " + i++ + ". " + ch.what() + (ch.where() == null ? "" : " on " + ch.where()) + ": "
                        + ch.before() + " -> " + ch.after() + ",");
                out.println("     " + ch.effect());
            }
        }
        out.println(c.sameLine());
        if (!c.unknown().isEmpty()) {
            out.println("unknown: " + String.join("; ", c.unknown()));
        }
    }

    private static String describe(Side s) {
        int n = s.logFiles().size();
        return s.path() + " (" + n + (n == 1 ? " log file" : " log files") + ")";
    }
}
