package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Saves and loads snapshots (`doctor --save`, `--snapshot`, `--compare`). A bad file is exit 2, one line. */
public final class SnapshotJson {
    // A missing number is a corrupt snapshot, not a zero; fields a later version adds are ignored.
    private static final ObjectReader READ = Json.mapper().readerFor(HostSnapshot.class)
            .with(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private SnapshotJson() {
    }

    public static String write(HostSnapshot s) {
        try {
            return Json.pretty().writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Written to a temporary file and moved into place, so a crash never leaves half a snapshot. */
    public static void save(HostSnapshot s, Path file) {
        try {
            AtomicFile.write(file, write(s) + "\n");
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot write the snapshot to " + file + ": " + e.getMessage());
        }
    }

    public static HostSnapshot load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw NcclbenchException.usage("snapshot " + file + " does not exist");
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot read snapshot " + file + ": " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    public static HostSnapshot parse(String text, String where) {
        try {
            JsonNode tree = Json.mapper().readTree(text);
            JsonNode doc = tree != null && tree.isObject() ? upgrade(tree) : null;
            String kind = doc == null ? null : doc.path("kind").asText(null);
            int version = doc == null ? -1 : doc.path("schema_version").asInt(-1);
            if (!HostSnapshot.KIND.equals(kind) || version != HostSnapshot.SCHEMA_VERSION) {
                throw NcclbenchException.usage("corrupt snapshot " + where + ": schema is "
                        + (kind == null ? "missing" : "'" + kind + "/" + version + "'") + ", not "
                        + HostSnapshot.KIND + "/" + HostSnapshot.SCHEMA_VERSION);
            }
            return READ.readValue(doc);
        } catch (JsonProcessingException e) {
            throw NcclbenchException.usage("corrupt snapshot " + where + ": " + NetCollector.firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw NcclbenchException.usage("corrupt snapshot " + where + ": " + e.getMessage());
        }
    }

    /** A version 1 snapshot ("schema": "ncclbench.host/1", camelCase keys) as version 2; others unchanged. */
    static JsonNode upgrade(JsonNode tree) {
        return LEGACY.equals(tree.path("schema").asText(null))
                ? Json.withEnvelope(tree, HostSnapshot.KIND, HostSnapshot.SCHEMA_VERSION, "env") : tree;
    }

    private static final String LEGACY = "ncclbench.host/1";
}
