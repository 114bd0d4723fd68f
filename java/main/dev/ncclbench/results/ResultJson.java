package dev.ncclbench.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.ncclbench.output.Json;

/** Result files through the one mapper: map keys sorted so that a file does not depend on hash order. */
final class ResultJson {
    /** Readers of schema 1 ignore fields added later (additions do not change the version). */
    static final ObjectMapper READER = Json.mapper();

    /** Indented, for the final document that people open. */
    static final ObjectWriter DOCUMENT = Json.sortedPretty();

    private ResultJson() {
    }

    /** One compact line, for the journal. */
    static String line(Object value) {
        return Json.text(Json.sorted(), value);
    }
}
