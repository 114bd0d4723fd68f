package dev.ncclbench.spec;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.output.Json;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class RunSpecTest {

    // every field away from its default, zero or null, so a field the builder drops shows as a difference
    private static final RunSpec FULL = RunSpec.builder().collectives(List.of("all_reduce", "broadcast"))
            .minBytes(16).maxBytes(1 << 30).maxBytesSource(MaxBytesSource.FLAG).stepFactor(3).stepBytes(4096)
            .iters(21).warmupIters(5).aggIters(2).repeat(3)
            .checkIters(2).op(ReduceOp.MAX).type(DataType.HALF).root(-1)
            .average(2).blocking(1).timeoutSeconds(7)
            .gpusPerThread(2).threads(3).cudaGraph(4).perIterTiming(1)
            .backend("socket").localRanks(4)
            .jsonFile(Path.of("a/b.json")).outDir(Path.of("out/x"))
            .socketsPerPeer(3).socketIfname("=eth0,lo").socketAlgo("ring").socketChunk(65536)
            .ncclTests(new RunSpec.NcclTests(List.of(DataType.HALF), List.of("max"), List.of("half max"),
                    new RunSpec.NcclTestsFlags(Path.of("nt.json"), 1, 1, 2, 3, 1, 1, 2, List.of("-u 3 (unalign)")),
                    "NCCL_TESTS_SPLIT=MOD 2", "0.5"))
            .build();

    @Test
    void theBuilderKeepsEveryFieldItIsGiven() {
        JsonNode full = Json.mapper().valueToTree(FULL);
        // -e as the sweep resolves it: a spec is written only once the backend gave its default
        JsonNode bare = Json.mapper().valueToTree(RunSpec.builder().maxBytes(SweepFlag.MAX_BYTES.defaultLong()).build());
        full.fieldNames().forEachRemaining(name -> assertNotEquals(bare.get(name), full.get(name), name));
        assertEquals(bare.size() + 2, full.size(), "split and alltoallv_spread are written only when set");
    }

    @Test
    void eachWitherChangesItsGroupAndNothingElse() throws Exception {
        RunSpec bare = RunSpec.builder().build();
        for (RecordComponent c : RunSpec.class.getRecordComponents()) {
            String name = "with" + Character.toUpperCase(c.getName().charAt(0)) + c.getName().substring(1);
            Method wither = RunSpec.class.getMethod(name, c.getType());
            RunSpec changed = (RunSpec) wither.invoke(bare, c.getAccessor().invoke(FULL));
            for (RecordComponent other : RunSpec.class.getRecordComponents()) {
                Object expected = other.getAccessor().invoke(other.getName().equals(c.getName()) ? FULL : bare);
                assertEquals(expected, other.getAccessor().invoke(changed), name + " and " + other.getName());
            }
        }
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
        assertEquals(new RunSpec.SizeRange(16, 1 << 20, MaxBytesSource.FITTED, 3, 4096), FULL.range().upTo(1 << 20, MaxBytesSource.FITTED));
    }

    @Test
    void aFieldNotSetIsItsFlagsDefaultNotZero() {
        RunSpec bare = RunSpec.builder().build();
        for (SweepFlag f : SweepFlag.values()) {
            if (f != SweepFlag.MAX_BYTES) {
                assertEquals(String.valueOf(f.defaultValue()), String.valueOf(f.valueIn(bare)), f.flag());
            }
        }
        assertEquals(MaxBytesSource.DEFAULT, bare.range().maxBytesSource());
        // -e's default depends on the backend: not given until the sweep knows it, and said so at the rendezvous
        assertTrue(bare.range().max().isEmpty());
        assertEquals("-e not given", SweepFlag.MAX_BYTES.given(bare));
        assertFalse(SweepFlag.MAX_BYTES.isSet(bare));
        IllegalStateException early = assertThrows(IllegalStateException.class, bare::sizes);
        assertTrue(early.getMessage().contains("before the backend resolved"), early.getMessage());
    }

    @Test
    void maxBytesSourceReadsOlderFilesSentences() throws Exception {
        // before the source was typed, a lowered -e kept its sentence there
        String old = Json.mapper().writeValueAsString(FULL).replace("\"max_bytes_source\":\"flag\"",
                "\"max_bytes_source\":\"-e defaults to 128 MiB on the socket backend (the smaller of ...)\"");
        assertEquals(MaxBytesSource.FITTED, Json.mapper().readValue(old, RunSpec.class).range().maxBytesSource());
        assertEquals(MaxBytesSource.REDUCED, MaxBytesSource.of("Reducing maxBytes to 1073741824 due to memory limitation"));
        assertEquals(MaxBytesSource.FLAG, MaxBytesSource.of("flag"));
    }

    @Test
    void theDerivedNamesReadTheirGroups() {
        assertEquals(List.of(16L, 48L), FULL.withRange(FULL.range().upTo(100, MaxBytesSource.FITTED)).sizes());
        assertEquals(7000, FULL.timeoutMillis());
        assertEquals("=eth0,lo", FULL.socket().ifname());
        assertEquals(DataType.HALF, FULL.data().type());
        assertEquals(List.of(DataType.HALF), FULL.types());
        assertEquals(List.of("sum"), RunSpec.builder().build().ops());
    }
}
