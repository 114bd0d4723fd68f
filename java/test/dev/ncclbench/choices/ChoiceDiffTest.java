package dev.ncclbench.choices;

import dev.ncclbench.Goldens;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * explain --compare on logs written from NCCL's format strings (2.18, 2.21, 2.28: java/test-resources/choices, outside nccllog/ so that explain rule changes do not touch them),
 * one pair per kind of change, and on the real H200 logs in ../shared/gpu-runs (read in place).
 */
class ChoiceDiffTest {
    private static final Path LOGS = Goldens.resources().resolve("choices");
    private static final Path GPU_RUNS = Path.of(System.getProperty("ncclbench.basedir", "."))
            .resolve("../shared/gpu-runs/h200-2026-12-04/runs");

    private static Comparison compare(String before, String after) throws IOException {
        return CompareReport.read(LOGS.resolve(before), LOGS.resolve(after)).comparison();
    }

    /** The first change names the fact, its before and its after; the effect says what happens to the bytes. */
    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "ib-gdr-2.21.log|ib-nogdr-2.21.log|gdr|GPUDirect RDMA off on 2 of 2 pairs|NET/IB/0/GDRDMA|NET/IB/0|staged through host memory",
        "ib-nogdr-2.21.log|ib-gdr-2.21.log|gdr|GPUDirect RDMA on on 2 of 2 pairs|NET/IB/0|NET/IB/0/GDRDMA|directly",
        "ib-gdr-2.21.log|socket-2.21.log|network|NCCL now on NET/Socket|NET/IB/0/GDRDMA|NET/Socket/0|TCP sockets",
        "socket-2.21.log|ib-gdr-2.21.log|network|NCCL now on NET/IB|NET/Socket/0|NET/IB/0/GDRDMA|RDMA instead",
        "ib-gdr-2.18.log|ib-gdr-2.21.log|version|NCCL 2.21.5|2.18.5|2.21.5|another NCCL",
        "gdr-4nodes-2.28.log|nics-1-2.28.log|nics|NCCL now uses 1 of 2 NICs|2 NICs (NCCL listed mlx5_0:1/IB mlx5_1:1/IB)|1 NIC (NCCL listed mlx5_0:1/IB)|fewer NICs",
        "gdr-4nodes-2.28.log|nics-policy-2.29.log|nics|NCCL now uses 1 of 2 NICs|2 NICs (NCCL listed mlx5_0:1/IB mlx5_1:1/IB)|1 NIC (NCCL listed mlx5_0:1/IB mlx5_1:1/IB)|as NCCL_NETDEVS_POLICY asks",
        "gdr-4nodes-2.28.log|pxn-2.28.log|pxn|PXN now on|off|on|NVLink",
        "nvls-8gpu-2.28.log|nvls-off-8gpu-2.28.log|nvls|NVLS now off|on|off|NVLink SHARP",
        "collnet-2.21.log|collnet-off-2.21.log|collnet|CollNet now off|on|off|in-network reduction",
        "nvls-8gpu-2.28.log|ipc-8gpu-2.28.log|intra|intra-node pairs now via P2P/IPC|P2P/CUMEM on 14 pairs|P2P/IPC on 14 pairs|mapping peer buffers",
        "nvls-8gpu-2.28.log|shm-8gpu-2.28.log|intra|intra-node pairs now via SHM|P2P/CUMEM on 14 pairs|SHM on 14 pairs|host shared memory",
    })
    void eachKindOfChangeIsNamedFirst(String before, String after, String fact, String what, String was, String now,
                                      String effect) throws IOException {
        Comparison c = compare(before, after);
        assertTrue(c.known());
        Change first = c.first().orElseThrow(() -> new AssertionError("no change found: " + c.sameLine()));
        assertEquals(fact, first.fact());
        assertEquals(what, first.what());
        assertEquals(was, first.before());
        assertEquals(now, first.after());
        assertTrue(first.effect().contains(effect), first.effect());
    }

    /** The setting NCCL read is a change of its own, after the decision it drove. */
    @Test
    void aChangedSettingIsListedAfterWhatItDid() throws IOException {
        List<Change> ch = compare("ib-gdr-2.21.log", "socket-2.21.log").changes();
        assertEquals(List.of("network", "env"), ch.stream().map(Change::fact).toList());
        assertEquals("NCCL_IB_DISABLE=1", ch.get(1).after());
        assertEquals("(not set)", ch.get(1).before());
        assertTrue(ch.get(1).effect().contains("falls back to TCP sockets"), ch.get(1).effect());
    }

    @Test
    void gdrOffOnOneNodeSaysWhere() throws IOException {
        Comparison c = compare("gdr-4nodes-2.28.log", "gdr-off-node7-2.28.log");
        assertEquals(1, c.changes().size(), c.changes().toString());
        Change g = c.changes().get(0);
        assertEquals("GPUDirect RDMA off on 2 of 4 pairs", g.what());
        assertEquals("node7", g.where());
        assertTrue(g.headline().startsWith("GPUDirect RDMA off on 2 of 4 pairs on node7 (was NET/IB/0/GDRDMA"),
                g.headline());
    }

    /** Old (2.21: numbers, no collective) and new (2.24+: names) TUNING lines; runs of sizes become one change. */
    @Test
    void algorithmChangesAreGroupedBySizeRuns() throws IOException {
        List<Change> t = compare("nvls-8gpu-2.28.log", "nvls-off-8gpu-2.28.log").changes().stream()
                .filter(c -> c.fact().equals("tuning")).toList();
        assertEquals(List.of("AllReduce at 64 KiB now RING LL128", "AllReduce 64 MiB to 1 GiB now RING SIMPLE"),
                t.stream().map(Change::what).toList());
        NcclChoices old = CompareReport.read(LOGS.resolve("ib-gdr-2.21.log"), LOGS.resolve("ib-gdr-2.21.log"))
                .before().choices();
        assertEquals("RING SIMPLE", old.tuning().get("any collective").get(1073741824L));
        assertEquals("RING LL", old.tuning().get("any collective").get(1024L));
    }

    @Test
    void differentJobsAreSaidFirst() throws IOException {
        Comparison c = compare("ib-gdr-2.21.log", "gdr-4nodes-2.28.log");
        assertNotNull(c.job());
        assertTrue(c.job().startsWith("different jobs: before 2 nodes, 2 ranks; after 4 nodes, 8 ranks"), c.job());
        assertNull(compare("ib-gdr-2.21.log", "ib-nogdr-2.21.log").job());
    }

    /** A choice only one side logged is unknown, not the same: 2.18 printed no TUNING choices. */
    @Test
    void aChoiceOneSideDidNotLogIsUnknown() throws IOException {
        Comparison c = compare("ib-gdr-2.18.log", "ib-gdr-2.21.log");
        assertTrue(c.unknown().stream().anyMatch(u -> u.startsWith("algorithm and protocol")), c.unknown().toString());
        assertFalse(c.same().stream().anyMatch(s -> s.startsWith("algorithm")), c.same().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ib-gdr-2.18.log", "ib-gdr-2.21.log", "ib-nogdr-2.21.log", "socket-2.21.log",
            "gdr-4nodes-2.28.log", "gdr-off-node7-2.28.log", "nics-1-2.28.log", "pxn-2.28.log", "nvls-8gpu-2.28.log",
            "nvls-off-8gpu-2.28.log", "ipc-8gpu-2.28.log", "shm-8gpu-2.28.log", "collnet-2.21.log",
            "collnet-off-2.21.log"})
    void aLogComparedWithItselfGivesNoChange(String log) throws IOException {
        Comparison c = compare(log, log);
        assertTrue(c.known());
        assertEquals(List.of(), c.changes());
        assertFalse(c.same().isEmpty());
    }

    /**
     * Every explain fixture (2.3 to 2.30, seeds, excerpts of real logs, one per rule) compared with itself gives no
     * change, and compared with another era's log names what it names without failing.
     */
    @org.junit.jupiter.api.TestFactory
    Stream<org.junit.jupiter.api.DynamicTest> everyExplainFixtureComparedWithItselfGivesNoChange() throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.walk(Goldens.resources().resolve("nccllog"))) {
            logs = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
        assertTrue(logs.size() > 20, logs.toString());
        return logs.stream().map(log -> org.junit.jupiter.api.DynamicTest.dynamicTest(
                Goldens.resources().resolve("nccllog").relativize(log).toString(), () -> {
                    Comparison self = CompareReport.read(log, log).comparison();
                    assertEquals(List.of(), self.changes(), self.changes().toString());
                    Comparison other = CompareReport.read(LOGS.resolve("ib-gdr-2.21.log"), log).comparison();
                    other.changes().forEach(c -> {
                        assertFalse(c.what().isBlank());
                        assertFalse(c.effect().isBlank());
                        assertFalse(c.before().equals(c.after()), c.toString());
                    });
                }));
    }

    /**
     * Two logs of one run: the job's one file against the same lines split into one file per process (as
     * NCCL_DEBUG_FILE writes them), read from a folder, hosts in the other order: no change.
     */
    @ParameterizedTest
    @ValueSource(strings = {"gdr-4nodes-2.28.log", "gdr-off-node7-2.28.log", "pxn-2.28.log", "nvls-8gpu-2.28.log"})
    void oneRunSplitIntoPerProcessFilesGivesNoChange(String log, @org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        java.util.Map<String, List<String>> perProcess = new java.util.TreeMap<>(java.util.Comparator.reverseOrder());
        for (String line : Files.readAllLines(LOGS.resolve(log))) {
            if (!line.startsWith("#")) {
                String[] hp = line.split(":", 3);
                perProcess.computeIfAbsent(hp[0] + "." + hp[1], k -> new java.util.ArrayList<>()).add(line);
            }
        }
        int i = 0;
        for (var e : perProcess.entrySet()) {
            // names sort the hosts backwards: the folder is read in another order than the single file
            Files.write(dir.resolve(String.format("nccl.%02d.%s.log", i++, e.getKey())), e.getValue());
        }
        Comparison c = CompareReport.read(LOGS.resolve(log), dir).comparison();
        assertTrue(c.known());
        assertEquals(List.of(), c.changes(), c.changes().toString());
        assertNull(c.job());
        if (!log.startsWith("gdr-off")) {
            // one process's file against another's, on another host: the choices each states agree
            List<Path> files;
            try (Stream<Path> s = Files.list(dir)) {
                files = s.sorted().toList();
            }
            Comparison ends = CompareReport.read(files.get(0), files.get(files.size() - 1)).comparison();
            assertEquals(List.of(), ends.changes(), files.get(0) + " " + files.get(files.size() - 1));
        }
    }

    /** Before 2.18 the channel line had no NVLS count: "%d coll channels, %d p2p channels, %d p2p channels per peer". */
    /**
     * NCCL 2.28+'s copy-engine collectives and symmetric kernels are paths of their own, said as such; a setting read
     * through an env plugin is NCCL's setting like any other, and the plugin itself is one (NCCL_ENV_PLUGIN).
     */
    @Test
    void copyEngineSymmetricAndEnvPluginAreChoices() {
        String head = "h:1:1 [0] NCCL INFO ENV/Plugin: Using ncclEnvExample (v2)\n"
                + "h:1:1 [0] NCCL INFO NCCL_NVLS_ENABLE set by environment to 1.\n";
        var before = ChoicesReader.of(NcclLogReader.readString(head
                + "h:1:1 [0] NCCL INFO AllGather: 1073741824 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..31}\n"
                + "h:1:1 [0] NCCL INFO AllReduce: 4096 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..1}\n", "b"));
        var after = ChoicesReader.of(NcclLogReader.readString(head
                + "h:1:1 [0] NCCL INFO AllGather [Copy Engine]: 1073741824 Bytes -> cudaMemcpy; CE synchronization with"
                + " NVLS\n"
                + "h:1:1 [0] NCCL INFO AllReduce [Symmetric]: 4096 Bytes -> Kernel AllReduce_AGxLLMC_R nchannels 4"
                + " nthreads 512 nWorks 1\n", "a"));
        assertEquals("ncclEnvExample", before.env().get("NCCL_ENV_PLUGIN"));
        Comparison c = ChoiceDiff.compare(before, after);
        List<Change> tuning = c.changes().stream().filter(ch -> ch.fact().equals("tuning")).toList();
        assertEquals(2, tuning.size(), c.changes().toString());
        assertTrue(tuning.stream().anyMatch(ch -> ch.what().equals("AllGather at 1 GiB now copy-engine cudaMemcpy")
                && ch.effect().contains("copy engines")), tuning.toString());
        assertTrue(tuning.stream().anyMatch(ch -> ch.what().equals("AllReduce at 4 KiB now symmetric AllReduce_AGxLLMC_R")
                && ch.effect().contains("symmetric kernel")), tuning.toString());
        assertTrue(c.changes().stream().noneMatch(ch -> ch.what().contains("NCCL_ENV_PLUGIN")),
                "the same env plugin on both sides is no change: " + c.changes());
    }

    @Test
    void channelsBeforeNvls() {
        NcclChoices c = ChoicesReader.of(dev.ncclbench.nccllog.NcclLogReader.readString(
                "h:1:1 [0] NCCL INFO 8 coll channels, 8 p2p channels, 2 p2p channels per peer\n", "2.16"));
        assertEquals(8, c.channels());
        assertNull(c.nvls());
    }

    /** The real H200 logs (NCCL 2.28.9, one GPU): any two runs of that machine decided the same. */
    @Test
    void realGpuRunsComparedWithEachOther() throws IOException {
        if (!Files.isDirectory(GPU_RUNS)) {
            return; // a checkout without ../shared: the fixtures above stand in
        }
        List<Path> runs;
        try (Stream<Path> s = Files.list(GPU_RUNS)) {
            runs = s.filter(p -> p.getFileName().toString().contains("-nccl-")).sorted().toList();
        }
        assertTrue(runs.size() >= 2, runs.toString());
        for (Path run : runs) {
            CompareReport r = CompareReport.read(runs.get(0), run);
            assertEquals(List.of(), r.comparison().changes(), run + ": " + r.comparison().changes());
            assertEquals(1, r.after().logFiles().size(), "result.json is not a log: " + r.after().logFiles());
            assertEquals(64, r.after().choices().channels());
            assertEquals("2.28.9", r.after().choices().ncclVersion());
        }
    }

    /** A folder without NCCL lines: its choices are unknown, never "no change". */
    @Test
    void aSideWithoutALogIsUnknown(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("result.json"), "{\"kind\": \"ncclbench.result\"}\n");
        CompareReport r = CompareReport.read(LOGS.resolve("ib-gdr-2.21.log"), dir);
        Comparison c = r.comparison();
        assertFalse(c.known());
        assertEquals(List.of(), c.changes());
        assertTrue(c.sameLine().startsWith("NCCL's choices are unknown"), c.sameLine());
        // a result without recorded choices (a run without a log) compares the same way
        assertFalse(ChoiceDiff.compare(null, r.before().choices()).known());
        assertFalse(ChoiceDiff.compare(r.before().choices(), null).known());
    }
}
