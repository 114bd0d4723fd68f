package dev.ncclbench.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

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

    public static void write(Paths p, FleetDocument doc) {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        try {
            put(p.json(), json.writeValueAsString(doc.json()) + "\n");
            put(p.html(), FleetHtml.render(doc));
            put(p.drain(), doc.drain().isEmpty() ? "" : String.join("\n", doc.drain()) + "\n");
            put(p.junit(), FleetJUnit.render(doc));
            put(p.prometheus(), FleetPrometheus.render(doc));
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.USAGE, "cannot write the fleet's results: " + e.getMessage());
        }
    }

    private static void put(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".fleet", ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
