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

    /** The files of an authenticated search. */
    public static void write(Paths p, FleetDocument doc) {
        write(p, doc, new DrainPolicy(true, false));
    }

    /**
     * The files; the drain list only where {@code drain} allows it, and a drain list left at its path by an earlier run
     * is removed then, so that no script drains what this run did not name.
     */
    static void write(Paths p, FleetDocument doc, DrainPolicy drain) {
        try {
            AtomicFile.write(p.json(), Json.prettyText(drain.into(doc.json())) + "\n");
            AtomicFile.write(p.html(), FleetHtml.render(doc, drain));
            if (drain.writes()) {
                AtomicFile.write(p.drain(), doc.drain().isEmpty() ? "" : String.join("\n", doc.drain()) + "\n");
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
