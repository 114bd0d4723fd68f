package dev.ncclbench.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The Jackson set-up of result files: map keys sorted so that a file does not depend on hash order. */
final class Json {
    /** Compact, for journal lines. */
    static final ObjectMapper LINE = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            // Readers of schema 1 ignore fields added later (additions do not change the version).
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /** Indented, for the final document that people open. */
    static final ObjectMapper DOCUMENT = LINE.copy().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    /** One compact line; our records always serialise, so a failure here is a bug, not an I/O error. */
    static String line(Object value) {
        try {
            return LINE.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }
}
