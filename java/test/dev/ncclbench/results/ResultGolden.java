package dev.ncclbench.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/** The result file the real writer produces from the table's fixed rows (for the JSON golden and schema). */
public final class ResultGolden {
    private ResultGolden() {
    }

    public static String document(Path dir) throws IOException {
        Path file = dir.resolve("result.json");
        ResultSink sink = ResultSinks.json(file, Clock.fixed(Instant.parse("2025-01-02T03:10:00Z"), ZoneOffset.UTC));
        sink.beginRun(Fixtures.run(List.of("all_reduce", "broadcast"), 1));
        Fixtures.allReduceRows().forEach(sink::row);
        Fixtures.broadcastRows().forEach(sink::row);
        sink.finish("ok", null);
        return Files.readString(file);
    }
}
