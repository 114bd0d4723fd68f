package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.Goldens;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** explain --compare from the command line: the text, the JSON kind, and one-line usage errors (exit 2). */
class ExplainCompareCommandTest {
    private static final Path LOGS = Goldens.resources().resolve("choices");

    record Run(int code, String out, String err) {
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void textNamesTheChangeWithItsEffectThenWhatStayedTheSame() {
        Run r = cli("explain", "--compare", LOGS.resolve("ib-gdr-2.21.log").toString(),
                LOGS.resolve("ib-nogdr-2.21.log").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("1 change, most consequential first:\n  1. GPUDirect RDMA off on 2 of 2 pairs:"
                + " NET/IB/0/GDRDMA -> NET/IB/0,\n     send and receive staged through host memory; up to half the"
                + " busbw on large messages\nsame: network IB, "), r.out());
    }

    @Test
    void jsonIsTheExplainCompareKind() throws IOException {
        Run r = cli("explain", "--json", "-", "--compare", LOGS.resolve("ib-gdr-2.21.log").toString(),
                LOGS.resolve("socket-2.21.log").toString());
        assertEquals(0, r.code(), r.err());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals("ncclbench.explain-compare", j.get("kind").asText());
        assertEquals(1, j.get("schema_version").asInt());
        assertEquals("network", j.at("/changes/0/fact").asText());
        assertEquals("NET/Socket/0", j.at("/changes/0/after").asText());
    }

    /** A run folder: its NCCL log is read, its result.json skipped (and not counted as a log). */
    @Test
    void aRunFolderIsOneSide(@TempDir Path dir) throws IOException {
        Path run = Files.createDirectories(dir.resolve("20261204-173618-nccl-657"));
        Files.copy(LOGS.resolve("ib-gdr-2.21.log"), run.resolve("nccl.gpu-20.5101.log"));
        Files.writeString(run.resolve("result.json"), "{\"kind\": \"ncclbench.result\", \"rows\": []}\n");
        Run r = cli("explain", "--compare", run.toString(), LOGS.resolve("ib-gdr-2.21.log").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("(1 log file)"), r.out());
        assertTrue(r.out().contains("no change: NCCL decided the same in both"), r.out());
    }

    @Test
    void usageErrorsAreOneLineAndExitTwo() {
        String log = LOGS.resolve("ib-gdr-2.21.log").toString();
        for (String[] args : new String[][]{
                {"explain", "--compare", log, LOGS.resolve("nothing-here.log").toString()},
                {"explain", "--compare", log},
                {"explain", "--compare", log, log, log},
                {"explain", "--compare", log, log, "--compare", log, log},
                {"explain", "--fail-on", "warn", "--compare", log, log},
                {"explain", "--compare", "-", log},
                {"explain"}}) {
            Run r = cli(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.out() + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
            assertFalse(r.err().isBlank(), String.join(" ", args));
        }
    }

    /** TUNING lines of each era: names (2.24+), numbers (2.19-2.23), sizes past 32 bits, symmetric kernels. */
    @Test
    void tuningLinesOfEachEra() {
        var e = NcclLogReader.readString(String.join("\n",
                "h:1:1 [0] NCCL INFO AllReduce: 8589934592 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..31}",
                "h:1:1 [0] NCCL INFO 1048576 Bytes -> Algo 0 proto 1 time 12.500000",
                "h:1:1 [0] NCCL INFO AllReduce [Symmetric]: 4096 Bytes -> Kernel AllReduce_AGxLL_R nchannels 4"
                        + " nthreads 512 nWorks 1",
                "h:1:1 [0] NCCL INFO AllGather [Copy Engine]: 4096 Bytes -> cudaMemcpyAsync", ""), "t");
        // the copy-engine line (2.28+) is a path of its own: no SM kernel moved those bytes
        assertEquals(java.util.List.of("AllReduce|8589934592 RING SIMPLE", "|1048576 TREE LL128",
                "AllReduce|4096 symmetric AllReduce_AGxLL_R", "AllGather|4096 copy-engine cudaMemcpy"),
                e.tuning().stream().map(m -> m.kind() + "|" + m.value()).toList());
    }
}
