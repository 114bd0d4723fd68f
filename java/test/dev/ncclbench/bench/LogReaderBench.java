package dev.ncclbench.bench;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Lines per second of the NCCL log reader on one thread. The input mixes what a real INFO log holds:
 * connection lines (the most common), topology and tuning lines it does not use, init lines, interleaved
 * nccl-tests rows and launcher prefixes. Score = lines/s (ops are lines). Run: scripts/bench/log-reader.sh
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class LogReaderBench {
    static final int LINES = 200_000;
    private static final String[] MIX = {
            "gpu-%d:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/IB/%d/GDRDMA",
            "gpu-%d:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read",
            "gpu-%d:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [receive] via NET/IB/%d/GDRDMA",
            "gpu-%d:%d:%d [%d] NCCL INFO %d coll channels, %d collnet channels, 0 nvls channels, %d p2p channels, 2 p2p channels per peer",
            "gpu-%d:%d:%d [%d] NCCL INFO Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->-1 [%d] -1/-1/-1->%d->%d",
            "[1,%d]<stdout>:gpu-%d:%d:%d [%d] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA %d 'mlx5_%d'",
            "gpu-%d:%d:%d [%d] NCCL INFO ncclCommInitRank comm 0x5%d rank %d nranks 16 cudaDev %d nvmlDev %d busId %d000 commId 0x1 - Init COMPLETE",
            "   %d33554432       %d8388608     float     sum      -1   1234.5   27.19   50.98      0   1230.1   27.28   51.15      0",
    };

    private byte[] input;

    @Setup(Level.Trial)
    public void build() {
        input = mix();
    }

    /** The input: LINES lines of the mix. */
    static byte[] mix() {
        StringBuilder sb = new StringBuilder(LINES * 100);
        for (int i = 0; i < LINES; i++) {
            int r = i % 16;
            String f = MIX[i % MIX.length];
            Object[] args = new Object[12];
            for (int k = 0; k < args.length; k++) {
                args[k] = (r + k) % 8;
            }
            sb.append(String.format(java.util.Locale.ROOT, f, args)).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    @OperationsPerInvocation(LINES)
    public NcclLogEvidence read() throws IOException {
        return new NcclLogReader().read(new ByteArrayInputStream(input), "bench").evidence();
    }
}
