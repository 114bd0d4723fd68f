package dev.ncclbench.diagnosis;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.RouteVerdict;
import dev.ncclbench.results.ResultRow;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RouteClassifierTest {
    private static final FabricCatalog CATALOG = FabricCatalog.builtIn();

    private static ResultRow row(long size, double busbw) {
        Measurement m = new Measurement(1000, busbw, busbw, 0);
        return new ResultRow("all_reduce", size, size / 4, "float", "sum", -1, m, m, null, null, null);
    }

    @Test
    void theSiteCatalogAndTheBuiltInOneAreTheSame() throws IOException {
        Path site = Path.of(System.getProperty("ncclbench.basedir", "."), "results", "baselines",
                "fabric-catalog.txt");
        assertEquals(FabricCatalog.load(site).entries(), CATALOG.entries());
        assertEquals(12.5, CATALOG.get("ib-edr").orElseThrow().lineGBps());
        assertTrue(CATALOG.entries().size() >= 25);
    }

    @Test
    void badCatalogLinesNameFileAndLine() {
        NcclbenchException e = assertThrows(NcclbenchException.class,
                () -> FabricCatalog.parse(new StringReader("# c\nx ethernet 1,25 0.8 0.9 socket\n"), "site.txt"));
        assertTrue(e.getMessage().startsWith("site.txt:2: "), e.getMessage());
    }

    @Test
    void theSeedsNumbersAloneSaySocketOnTenGbE() {
        RouteVerdict v = RouteClassifier.classify(row(1L << 30, 1.095), 8, Optional.empty(), OptionalDouble.empty(),
                CATALOG.get("eth-10g"));
        assertEquals("socket", v.path());
        assertEquals("likely", v.confidence());
    }

    @Test
    void numbersCannotTellHostStagedFromGdr() {
        RouteVerdict healthy = RouteClassifier.classify(row(1L << 30, 12.2), 16, Optional.empty(),
                OptionalDouble.empty(), CATALOG.get("ib-edr"));
        assertEquals("rdma", healthy.path());
        assertTrue(healthy.reason().contains("cannot tell"));
        RouteVerdict half = RouteClassifier.classify(row(1L << 30, 6.0), 16, Optional.empty(),
                OptionalDouble.empty(), CATALOG.get("ib-edr"));
        assertEquals("rdma-host-staged", half.path());
        RouteVerdict floor = RouteClassifier.classify(row(1L << 30, 1.2), 16, Optional.empty(),
                OptionalDouble.of(1.1), CATALOG.get("ib-edr"));
        assertEquals("socket", floor.path());
    }

    @Test
    void smallSizesAreLatencyBound() {
        RouteVerdict v = RouteClassifier.classify(row(8, 0.0), 16, Optional.empty(), OptionalDouble.empty(),
                CATALOG.get("ib-edr"));
        assertEquals("unknown", v.path());
    }

    @Test
    void theLogWinsAndTheSummaryEndsTheTable() throws IOException {
        var log = FixtureTest.read("seeds/ib-without-gdrdma.log");
        RouteClassifier pc = new RouteClassifier(2, Optional.of(log), OptionalDouble.empty(), CATALOG.get("ib-hdr"));
        ResultRow r = row(1L << 30, 12.0);
        RouteVerdict v = pc.classify(r);
        assertEquals("rdma-host-staged", v.path());
        assertEquals("certain", v.confidence());
        assertTrue(v.evidence().stream().anyMatch(s -> s.contains("seeds/ib-without-gdrdma.log:")));
        List<String> lines = pc.summaryLines(List.of(r.withVerdict(v)));
        assertTrue(lines.get(0).startsWith("# Path: rdma-host-staged (certain)"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("NET-IB-NO-GDR")), lines.toString());
        assertTrue(lines.stream().allMatch(l -> l.startsWith("#")));
    }

    @Test
    void oneRankIsLoopback() {
        assertEquals("loopback", RouteClassifier.classify(row(1L << 30, 0), 1, Optional.empty(),
                OptionalDouble.empty(), Optional.empty()).path());
    }

    @Test
    void catalogFileMissingIsAUsageError() {
        assertThrows(NcclbenchException.class, () -> FabricCatalog.load(Files.exists(Path.of("/nope"))
                ? Path.of("/nope2") : Path.of("/nope")));
    }
}
