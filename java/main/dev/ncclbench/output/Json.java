package dev.ncclbench.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.List;

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

    /**
     * A copy of {@code tree} with camelCase object keys in snake_case, for readers of documents written before
     * the snake_case convention. The values of the fields named in {@code mapsKeptAsIs} are maps of data (an
     * environment), whose keys are left alone.
     */
    public static JsonNode snakeCaseKeys(JsonNode tree, String... mapsKeptAsIs) {
        if (tree.isArray()) {
            ArrayNode out = MAPPER.createArrayNode();
            tree.forEach(x -> out.add(snakeCaseKeys(x, mapsKeptAsIs)));
            return out;
        }
        if (!tree.isObject()) {
            return tree;
        }
        ObjectNode out = MAPPER.createObjectNode();
        tree.fields().forEachRemaining(e -> out.set(SNAKE.translate(e.getKey()),
                List.of(mapsKeptAsIs).contains(e.getKey()) ? e.getValue() : snakeCaseKeys(e.getValue(), mapsKeptAsIs)));
        return out;
    }

    /**
     * An old document of the form {@code "schema": "KIND/1"} with camelCase keys, as one of today's envelope: keys in
     * snake_case, "schema" replaced by "kind" and "schema_version". Reading an old file is the one place a tree is
     * edited; documents are written from their records.
     */
    public static JsonNode withEnvelope(JsonNode tree, String kind, int schemaVersion, String... mapsKeptAsIs) {
        ObjectNode out = (ObjectNode) snakeCaseKeys(tree, mapsKeptAsIs);
        out.remove("schema");
        out.put("kind", kind);
        out.put("schema_version", schemaVersion);
        return out;
    }

    private static final PropertyNamingStrategies.NamingBase SNAKE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;
}
