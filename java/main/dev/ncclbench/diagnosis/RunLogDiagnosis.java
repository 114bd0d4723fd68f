package dev.ncclbench.diagnosis;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.results.ResultRow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * The path verdict of a finished sweep, read from the NCCL logs its ranks wrote: a verdict per row, the few
 * summary lines the table ends with, and the run's diagnosis. Only rank 0's node's logs are at hand; on one
 * node that is the whole job.
 *
 * @param rows        the rows with their verdicts
 * @param summary     lines to print after the table
 * @param diagnosis   what the logs say, when there were logs
 * @param readProblem a sentence when a log could not be read, else null
 * @param evidence    what the logs said, when there were logs (the result records NCCL's choices from it)
 */
public record RunLogDiagnosis(List<ResultRow> rows, List<String> summary, Optional<Diagnosis> diagnosis,
                              String readProblem, Optional<NcclLogEvidence> evidence) {

    /** This process's own log files, then every other process's {@code nccl.*.log} in the run folder. */
    public static List<Path> logsOf(List<Path> own, Path runFolder) {
        List<Path> logs = new ArrayList<>();
        own.stream().filter(Files::isRegularFile).forEach(logs::add);
        try (Stream<Path> files = Files.list(runFolder)) {
            files.filter(p -> p.getFileName().toString().startsWith("nccl.") && p.getFileName().toString().endsWith(".log"))
                    .filter(p -> !logs.contains(p)).sorted().forEach(logs::add);
        } catch (IOException e) {
            // no folder listing: the process's own logs are still there
        }
        return logs;
    }

    public static RunLogDiagnosis of(List<Path> logs, List<ResultRow> rows, int nranks, OptionalDouble socketFloorGBps,
                                     Optional<FabricEntry> fabric) {
        return of(logs, rows, nranks, socketFloorGBps, fabric, Optional.empty());
    }

    /** @param copyLimit what one GPU can copy: the summary's yardstick for a one-rank run */
    public static RunLogDiagnosis of(List<Path> logs, List<ResultRow> rows, int nranks, OptionalDouble socketFloorGBps,
                                     Optional<FabricEntry> fabric, Optional<CopyLimit> copyLimit) {
        Optional<NcclLogEvidence> evidence = Optional.empty();
        String problem = null;
        if (!logs.isEmpty()) {
            try {
                evidence = Optional.of(NcclLogReader.readAll(logs));
            } catch (IOException e) {
                problem = "could not read the NCCL log " + logs + ": " + e.getMessage();
            }
        }
        RouteClassifier pc = new RouteClassifier(nranks, evidence, socketFloorGBps, fabric, copyLimit);
        List<ResultRow> diagnosed = new ArrayList<>();
        for (ResultRow r : rows) {
            diagnosed.add(r.withVerdict(pc.classify(r)));
        }
        return new RunLogDiagnosis(List.copyOf(diagnosed), pc.summaryLines(diagnosed), pc.diagnosis(), problem,
                evidence);
    }
}
