package dev.ncclbench.nccllog;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reader never throws on the content of a log (binary input ends with {@link NotAnNcclLogException}), and its
 * memory does not grow with the input.
 */
class NcclLogReaderPropertiesTest {

    static final List<String> REAL = List.of(
            "server3:15223:15223 [7] NCCL INFO NET/Socket : Using [0]enp41s0f1:<0> [1]virbr0:<0>",
            "10-90-43-152:120890:121560 [0] NCCL INFO Channel 01 : 2[c7000] -> 0[87000] [receive] via NET/IB/5/GDRDMA",
            "hostname-test:984:1257 [4] NCCL INFO Channel 06/0 : 36[4] -> 20[4] [send] via NET/IBext_v8/3",
            "[2026-07-29 07:21:55] localhost:24281:24281 [0] bootstrap.cc:126 (bootstrapNetInit) NCCL WARN Bootstrap : no socket interface found",
            "pkb-aa8dbd1b-0:9100:9100 [0] NCCL INFO NET/IB : Using [0]mlx4_0:1/IB ; OOB eth0:10.0.0.5<0>",
            "h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 3 nranks 16 cudaDev 3 nvmlDev 3 busId 3d000 commId 0x9 - Init COMPLETE",
            "h:1:1 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'",
            "NCCL version 2.30.7+cuda13.0",
            "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/1(3)/GDRDMA(PCI)/Shared",
            "       8             2     float     sum      -1    12.34    0.00    0.00      0    11.90    0.00    0.00      0");

    @Property(tries = 300)
    void arbitraryBytesNeverThrow(@ForAll @Size(max = 4000) byte[] bytes) throws IOException {
        try {
            NcclLogEvidence e = new NcclLogReader().read(new ByteArrayInputStream(bytes), "fuzz").evidence();
            assertTrue(e.counts().total() >= 0);
        } catch (NotAnNcclLogException binary) {
            assertTrue(binary.getMessage().startsWith("fuzz: not an NCCL log: "), binary.getMessage());
        }
    }

    @Property(tries = 1000)
    void mutatedRealLinesNeverThrow(@ForAll("mutatedLines") String text) {
        NcclLogEvidence e = NcclLogReader.readString(text, "mutated");
        assertEquals(e.counts().total(), e.counts().ncclLines() + e.counts().otherLines());
        dev.ncclbench.diagnosis.Diagnoser.diagnose(e); // and the rules take whatever came out
    }

    @Provide
    Arbitrary<String> mutatedLines() {
        Arbitrary<String> line = Arbitraries.of(REAL);
        Arbitrary<Integer> pos = Arbitraries.integers().between(0, 140);
        Arbitrary<String> insert = Arbitraries.oneOf(Arbitraries.of("", " ", ":", "[", "]", "->", " via ", "/",
                "(", ")", "NCCL ", "WARN ", "INFO ", "\u001b[", "\r", "\n", "99999999999999999999", "-1", "é"),
                Arbitraries.strings().ofMaxLength(6));
        Arbitrary<Integer> cut = Arbitraries.integers().between(0, 20);
        Arbitrary<String> one = net.jqwik.api.Combinators.combine(line, pos, insert, cut).as((l, p, ins, c) -> {
            int at = Math.min(p, l.length());
            int end = Math.min(l.length(), at + c);
            return l.substring(0, at) + ins + l.substring(end);
        });
        return one.list().ofMaxSize(20).map(ls -> String.join("\n", ls));
    }

    /** 200 MB of NCCL-like lines generated on the fly: memory stays bounded by the caps. */
    @Example
    void aLargeStreamKeepsBoundedEvidence() throws IOException {
        long target = 200L << 20;
        InputStream gen = new GeneratedLog(target);
        NcclLogReader r = new NcclLogReader();
        r.read(gen, "generated");
        NcclLogEvidence e = r.evidence();
        assertTrue(e.counts().total() > 2_000_000, "lines: " + e.counts().total());
        assertTrue(e.connections().size() <= NcclLogReader.MAX_ITEMS);
        assertTrue(e.warnings().size() <= Accumulator.MAX_WARNING_SITES);
        assertTrue(e.env().size() <= NcclLogReader.MAX_ITEMS);
        assertTrue(e.processes().size() <= NcclLogReader.MAX_ITEMS);
        assertTrue(e.measured().size() <= NcclLogReader.MAX_ITEMS);
        assertTrue(e.counts().dropped() > 0);
    }

    @Example
    void anEndlessLineIsCut() throws IOException {
        byte[] big = new byte[5 * NcclLogReader.MAX_LINE];
        java.util.Arrays.fill(big, (byte) 'x');
        NcclLogEvidence e = new NcclLogReader().read(new ByteArrayInputStream(big), "big").evidence();
        assertEquals(1, e.counts().total());
        assertEquals(1, e.counts().truncated());
    }
}
