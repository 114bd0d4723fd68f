package dev.ncclbench.spec;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RunSpecTest {

    // every field away from its zero or null, so a field the builder drops shows as a difference
    private static final RunSpec FULL = RunSpec.builder().collectives(List.of("all_reduce", "broadcast"))
            .minBytes(8).maxBytes(1 << 30).maxBytesSource(dev.ncclbench.spec.MaxBytesSource.FLAG).stepFactor(3).stepBytes(4096)
            .iters(20).warmupIters(5).aggIters(2).repeat(3)
            .checkIters(1).op(ReduceOp.MAX).type(DataType.HALF).root(-1)
            .average(2).blocking(1).timeoutSeconds(7)
            .gpusPerThread(2).threads(3).cudaGraph(4).perIterTiming(1)
            .backend("socket").localRanks(4)
            .jsonFile(Path.of("a/b.json")).outDir(Path.of("out/x"))
            .socketsPerPeer(2).socketIfname("=eth0,lo").socketAlgo("ring").socketChunk(65536)
            .build();

    @Test
    void toBuilderKeepsEveryField() {
        assertEquals(FULL, FULL.toBuilder().build());
    }

    @Test
    void readsBackWhatItWrites() throws Exception {
        String text = Json.mapper().writeValueAsString(FULL);
        assertEquals(FULL, Json.mapper().readValue(text, RunSpec.class));
    }

    @Test
    void loweringTheEndBringsTheStartDownWithIt() {
        RunSpec.SizeRange r = FULL.range().upTo(4, MaxBytesSource.FITTED);
        assertEquals(new RunSpec.SizeRange(4, 4, MaxBytesSource.FITTED, 3, 4096), r);
        assertEquals(new RunSpec.SizeRange(8, 1 << 20, MaxBytesSource.FITTED, 3, 4096), FULL.range().upTo(1 << 20, MaxBytesSource.FITTED));
    }

    @Test
    void aFieldNotSetIsItsFlagsDefaultNotZero() {
        RunSpec bare = RunSpec.builder().build();
        for (SweepFlag f : SweepFlag.values()) {
            assertEquals(String.valueOf(f.defaultValue()), String.valueOf(f.valueIn(bare)), f.flag());
        }
        assertEquals(MaxBytesSource.DEFAULT, bare.maxBytesSource());
    }

    @Test
    void maxBytesSourceReadsOlderFilesSentences() throws Exception {
        // before the source was typed, a lowered -e kept its sentence there
        String old = Json.mapper().writeValueAsString(FULL).replace("\"max_bytes_source\":\"flag\"",
                "\"max_bytes_source\":\"-e defaults to 128 MiB on the socket backend (the smaller of ...)\"");
        assertEquals(MaxBytesSource.FITTED, Json.mapper().readValue(old, RunSpec.class).maxBytesSource());
        assertEquals(MaxBytesSource.REDUCED, MaxBytesSource.of("Reducing maxBytes to 1073741824 due to memory limitation"));
        assertEquals(MaxBytesSource.FLAG, MaxBytesSource.of("flag"));
    }

    @Test
    void theFlatNamesReadTheirGroups() {
        assertEquals(List.of(8L, 24L, 72L), FULL.toBuilder().maxBytes(100).build().sizes());
        assertEquals(7000, FULL.timeoutMillis());
        assertEquals("=eth0,lo", FULL.socketIfname());
        assertEquals(DataType.HALF, FULL.type());
    }
}
