package dev.ncclbench.output;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonTest {
    record Doc(String kind, Map<String, Integer> counts) {
    }

    @Test
    void theVariantsDifferOnlyInIndentationAndKeyOrder() throws Exception {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("b", 2);
        counts.put("a", 1);
        Doc d = new Doc("k", counts);
        assertEquals("{\"kind\":\"k\",\"counts\":{\"b\":2,\"a\":1}}", Json.mapper().writeValueAsString(d));
        assertEquals("{\"kind\":\"k\",\"counts\":{\"a\":1,\"b\":2}}", Json.sorted().writeValueAsString(d));
        assertEquals("{\n  \"kind\" : \"k\",\n  \"counts\" : {\n    \"a\" : 1,\n    \"b\" : 2\n  }\n}",
                Json.sortedPretty().writeValueAsString(d));
        assertEquals("{\n  \"kind\" : \"k\",\n  \"counts\" : {\n    \"b\" : 2,\n    \"a\" : 1\n  }\n}", Json.prettyText(d));
    }

    @Test
    void readersIgnoreFieldsALaterVersionAdds() throws Exception {
        Doc d = Json.mapper().readValue("{\"kind\":\"k\",\"counts\":{},\"added_later\":true}", Doc.class);
        assertEquals("k", d.kind());
    }
}
