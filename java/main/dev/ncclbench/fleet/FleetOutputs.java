package dev.ncclbench.fleet;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.Json;

import java.io.IOException;
import java.nio.file.Path;

/** Rank 0's files: the JSON, the HTML report, the drain list, JUnit XML and Prometheus text; each written whole. */
public final class FleetOutputs {
    private FleetOutputs() {
    }

    /** Given paths (null: the default name in the run's folder). */
    public record Paths(Path json, Path html, Path drain, Path junit, Path prometheus) {
        public Paths under(Path folder) {
            return new Paths(or(json, folder, "fleet.json"), or(html, folder, "fleet.html"), or(drain, folder, "drain.txt"),
                    or(junit, folder, "fleet-junit.xml"), or(prometheus, folder, "fleet.prom"));
        }

        private static Path or(Path given, Path folder, String name) {
            return given != null ? given : folder.resolve(name);
        }
    }

    /** The drain list's first line: the run that wrote it, so that a script drains only its own run's list. */
    public static final String DRAIN_HEADER = "# ncclbench fleet run ";

    /** The files of an authenticated search, its drain list headed with {@code runId}. */
    public static void write(Paths p, FleetDocument doc, String runId) {
        DrainPolicy trusting = DrainPolicy.trusting();
        write(p, doc, trusting, trusting.decide(doc), runId);
    }

    /**
     * The files; the drain list only where {@code policy} allows it, headed with {@code runId} and then one node a line,
     * and a drain list left at its path by an earlier run is removed then, so that no script drains what this run did
     * not name.
     */
    static void write(Paths p, FleetDocument doc, DrainPolicy policy, DrainPolicy.Drain drain, String runId) {
        try {
            AtomicFile.write(p.json(), Json.prettyText(doc.json().withDrainAccount(policy.authenticated(), drain)) + "\n");
            AtomicFile.write(p.html(), FleetHtml.render(doc, policy, drain));
            if (drain.written()) {
                StringBuilder list = new StringBuilder(DRAIN_HEADER).append(runId).append('\n');
                // a rail's finding as a comment above its node: scontrol reads the names, a person reads why
                drain.names().forEach(n -> {
                    if (drain.rails().containsKey(n)) {
                        list.append("# ").append(n).append(": ").append(FleetDocument.oneLine(drain.rails().get(n))).append('\n');
                    }
                    list.append(n).append('\n');
                });
                AtomicFile.write(p.drain(), list.toString());
            } else {
                java.nio.file.Files.deleteIfExists(p.drain());
            }
            AtomicFile.write(p.junit(), FleetJUnit.render(doc));
            AtomicFile.write(p.prometheus(), FleetPrometheus.render(doc));
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.USAGE, "cannot write the fleet's results: " + e.getMessage());
        }
    }
}
