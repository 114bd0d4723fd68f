package dev.ncclbench.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one Jackson set-up. Variants are writers and readers derived from it, never a second mapper, so every
 * document is written the same way. Do not reconfigure {@link #mapper()}: it is shared.
 */
public final class Json {
    // Readers ignore fields added later: additions to a document do not change its schema version.
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private static final ObjectWriter PRETTY = MAPPER.writer().with(SerializationFeature.INDENT_OUTPUT);
    // Sorted map keys: a result or baseline file must not depend on hash order.
    private static final ObjectWriter SORTED = MAPPER.writer().with(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final ObjectWriter SORTED_PRETTY = SORTED.with(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    /** Reading, trees, and compact writing (one line, for messages between processes). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Indented, for documents people open. */
    public static ObjectWriter pretty() {
        return PRETTY;
    }

    /** Compact with map keys sorted: journal lines. */
    public static ObjectWriter sorted() {
        return SORTED;
    }

    /** Indented with map keys sorted: result and baseline files. */
    public static ObjectWriter sortedPretty() {
        return SORTED_PRETTY;
    }

    /** Indented text of one of our own documents; they always serialise, so a failure here is a bug, not an I/O error. */
    public static String prettyText(Object value) {
        return text(PRETTY, value);
    }

    /** As {@link #prettyText}, with {@code writer}. */
    public static String text(ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }
}
