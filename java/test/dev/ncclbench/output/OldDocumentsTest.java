package dev.ncclbench.output;

import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.SnapshotJson;
import dev.ncclbench.Goldens;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Files written by the ncclbench before one JSON convention (golden/json/old/, produced by that code) are still
 * read: a renamed key bumped its document's version, and the readers take both.
 */
class OldDocumentsTest {
    private static final Path OLD = JsonDocumentsTest.OLD;

    @Test
    void aResultFileOfVersionOneIsRead() throws Exception {
        ResultDocument doc = ResultFiles.read(OLD.resolve("result-v1.json"));
        assertEquals(1, doc.schemaVersion());
        assertEquals("ok", doc.status());
        assertEquals(4, doc.rows().size());
        assertFalse(Json.mapper().readTree(OLD.resolve("result-v1.json").toFile()).has("kind"), "really the old form");
    }

    @Test
    void aBaselineOfVersionOneIsRead() throws Exception {
        Baseline b = BaselineStore.read(OLD.resolve("golden-v1.baseline.json"));
        assertEquals(Baseline.KIND_V1, b.kind());
        assertEquals(1, b.schemaVersion());
        assertEquals(4, b.entries().size());
    }

    @Test
    void aSnapshotOfVersionOneIsReadAsTheHostItWasTakenFrom() {
        HostSnapshot old = SnapshotJson.load(OLD.resolve("host-v1.json"));
        HostSnapshot now = HostCollector.capture(Goldens.resources().resolve("doctor/hosts/a100-two-nic"));
        assertEquals(HostSnapshot.SCHEMA_VERSION, old.schemaVersion());
        assertEquals(now.withProbe(null).interfaces(), old.interfaces());
        assertEquals(now.ibDevices(), old.ibDevices());
        assertEquals(now.memlockBytes(), old.memlockBytes());
        assertEquals(now.env(), old.env());
        assertEquals(now.nvidia(), old.nvidia());
    }

    @Test
    void theSchemasRejectTheOldForms() throws Exception {
        String explain = Files.readString(Goldens.resources().resolve("golden/json/explain.json"));
        assertFalse(JsonDocumentsTest.problems("explain", explain.replace("\"severity\" : \"error\"",
                "\"severity\" : \"ERROR\"")).isEmpty(), "upper-case severity");
        assertFalse(JsonDocumentsTest.problems("explain", explain.replace("\"path\" : ", "\"route\" : ")).isEmpty(),
                "summary.path is kept");
        assertFalse(JsonDocumentsTest.problems("doctor", "{\"schema\": \"ncclbench.doctor/1\"}").isEmpty());
        assertEquals(List.of(), JsonDocumentsTest.problems("explain", explain));
    }
}
