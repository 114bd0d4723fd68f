package dev.ncclbench.diagnosis;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.nccllog.NotAnNcclLogException;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * `ncclbench explain` as one library call: the logs read (files and folders together, in parallel; "-" from stdin
 * where it stands), the evidence judged, and the answer printed as text or JSON. A file that is not an NCCL log, or
 * that cannot be read, is one sentence and exit 2.
 *
 * @param skipped what the reader left out of a folder, one line each ("run/stdout.txt: not an NCCL log")
 */
public record Explanation(NcclLogEvidence evidence, Diagnosis diagnosis, List<String> skipped) {
    public Explanation {
        skipped = List.copyOf(skipped);
    }

    /** @param inputs files, folders, or "-" for {@code stdin}; {@code ignored}: rule ids left out */
    public static Explanation of(List<String> inputs, InputStream stdin, Set<String> ignored) {
        NcclLogReader reader = new NcclLogReader();
        List<Path> files = new ArrayList<>();
        for (String in : inputs) {
            if (in.equals("-")) {
                read(reader, files);
                files.clear();
                try {
                    reader.read(stdin, "-");
                } catch (NotAnNcclLogException e) {
                    throw NcclbenchException.usage(e.getMessage());
                } catch (IOException e) {
                    throw NcclbenchException.usage("stdin: cannot read: " + e.getMessage());
                }
            } else {
                Path p = Path.of(in);
                if (!Files.exists(p)) {
                    throw NcclbenchException.usage(in + ": no such file or directory");
                }
                files.add(p);
            }
        }
        read(reader, files);
        NcclLogEvidence e = reader.evidence();
        return new Explanation(e, Diagnoser.diagnose(e, ignored), reader.skipped());
    }

    /** Reads the files given together; one sentence and exit 2 for a file that is not a log. */
    private static void read(NcclLogReader reader, List<Path> files) {
        if (files.isEmpty()) {
            return;
        }
        try {
            reader.read(files);
        } catch (NotAnNcclLogException e) {
            throw NcclbenchException.usage(e.getMessage());
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot read " + (files.size() == 1 ? files.get(0) : "the logs") + ": "
                    + e.getMessage());
        }
    }

    public void write(PrintWriter out) {
        ExplainText.write(out, evidence, diagnosis);
    }

    public String json() {
        return ExplainText.json(evidence, diagnosis);
    }

    /** The health's exit code; a healthy path with a finding at or above {@code failOn} (null: none) is exit 6. */
    public int exitCode(FailOn failOn) {
        int code = diagnosis.health().exitCode.code;
        if (code == ExitCode.OK.code && failOn != null && failOn.fails(diagnosis.findings())) {
            return ExitCode.DEGRADED.code;
        }
        return code;
    }
}
