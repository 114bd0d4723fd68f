package dev.ncclbench.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;

/** Result files through the one mapper: map keys sorted so that a file does not depend on hash order. */
final class ResultJson {
    /** Readers of schema 1 ignore fields added later (additions do not change the version). */
    static final ObjectMapper READER = dev.ncclbench.output.Json.mapper();

    /** Indented, for the final document that people open. */
    static final ObjectWriter DOCUMENT = dev.ncclbench.output.Json.sortedPretty();

    private ResultJson() {
    }

    /** One compact line, for the journal. */
    static String line(Object value) {
        return dev.ncclbench.output.Json.text(dev.ncclbench.output.Json.sorted(), value);
    }
}
