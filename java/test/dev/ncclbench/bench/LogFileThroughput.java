package dev.ncclbench.bench;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Lines per second of the reader on real files (a generated job's logs), one file on one thread or many files on
 * all cores: the file half of scripts/bench/log-reader.sh, next to the JMH in-memory mix. Prints every round and
 * the best; the first rounds warm the JIT.
 * Usage: LogFileThroughput ROUNDS PATH... | LogFileThroughput ROUNDS mix (LogReaderBench's lines, from memory)
 */
public final class LogFileThroughput {
    private LogFileThroughput() {
    }

    public static void main(String[] args) throws IOException {
        int rounds = Integer.parseInt(args[0]);
        List<Path> paths = java.util.Arrays.stream(args).skip(1).map(Path::of).toList();
        byte[] mix = args.length == 2 && args[1].equals("mix") ? LogReaderBench.mix() : null;
        double best = 0;
        double bestCpu = 0;
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            long c0 = mx.getCurrentThreadCpuTime();
            NcclLogEvidence e = mix != null ? new NcclLogReader().read(new java.io.ByteArrayInputStream(mix), "mix")
                    .evidence() : new NcclLogReader().read(paths).evidence();
            double s = (System.nanoTime() - t0) / 1e9;
            // the reading thread's own CPU time: on a shared machine wall time says more about the neighbours
            double cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
            double rate = e.counts().total() / s;
            best = Math.max(best, rate);
            bestCpu = Math.max(bestCpu, e.counts().total() / cpu);
            System.out.printf(Locale.ROOT, "round %d: %d lines in %.2f s = %.2f M lines/s wall, %.2f M lines per CPU"
                    + " second of this thread (%d host(s))%n", r + 1, e.counts().total(), s, rate / 1e6,
                    e.counts().total() / cpu / 1e6, e.hosts().size());
        }
        System.out.printf(Locale.ROOT, "best: %.2f M lines/s wall on %d core(s); %.2f M lines per CPU second (one file:"
                + " the reading thread's own)%n", best / 1e6, Runtime.getRuntime().availableProcessors(), bestCpu / 1e6);
    }
}
