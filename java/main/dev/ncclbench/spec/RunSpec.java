package dev.ncclbench.spec;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

import java.nio.file.Path;
import java.util.List;

/**
 * The resolved options of one sweep: what the command line asked for, with every default filled in.
 * It is written into every result so that a result explains itself.
 *
 * @param collectives     nccl-tests names, in run order
 * @param minBytes        -b
 * @param maxBytes        -e
 * @param maxBytesSource  where -e came from: "flag", "default", or a sentence (e.g. the free-memory cap)
 * @param stepFactor      -f (0 or 1: additive)
 * @param stepBytes       -i
 * @param iters           -n
 * @param warmupIters     -w
 * @param aggIters        -m
 * @param repeat          -N
 * @param checkIters      -c (0: #wrong prints N/A)
 * @param op              -o
 * @param type            -d
 * @param root            -r (-1: every root)
 * @param average         -a: 0 rank 0, 1 mean, 2 min, 3 max
 * @param blocking        -z
 * @param timeoutSeconds  -T (0: the backend's default watchdog)
 * @param gpusPerThread   -g
 * @param threads         -t
 * @param cudaGraph       -G (0: off)
 * @param backend         auto, nccl or socket as asked
 * @param localRanks      --ranks: ranks run as threads of this process (socket backend)
 * @param jsonFile        --json, or null for the default beside the run's output
 * @param outDir          --out
 * @param socketsPerPeer  TCP connections per pair of ranks (socket backend)
 * @param socketIfname    NCCL_SOCKET_IFNAME-syntax list the socket backend binds with; null: NCCL's default order
 */
public record RunSpec(
        List<String> collectives,
        long minBytes,
        long maxBytes,
        String maxBytesSource,
        long stepFactor,
        long stepBytes,
        int iters,
        int warmupIters,
        int aggIters,
        int repeat,
        int checkIters,
        ReduceOp op,
        DataType type,
        int root,
        int average,
        int blocking,
        int timeoutSeconds,
        int gpusPerThread,
        int threads,
        int cudaGraph,
        String backend,
        int localRanks,
        Path jsonFile,
        Path outDir,
        int socketsPerPeer,
        String socketIfname) {

    /** The sizes of the sweep in order, exactly as nccl-tests steps them. */
    public List<Long> sizes() {
        return Sizes.steps(minBytes, maxBytes, stepFactor, stepBytes);
    }

    public RunSpec withMaxBytes(long newMax, String source) {
        return new RunSpec(collectives, Math.min(minBytes, newMax), newMax, source, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, backend, localRanks, jsonFile, outDir, socketsPerPeer, socketIfname);
    }

    public RunSpec withSocketIfname(String ifname) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, backend, localRanks, jsonFile, outDir, socketsPerPeer, ifname);
    }

    /** The run's own folder under --out: where the JSON and the NCCL logs go. */
    public RunSpec withOutDir(Path dir) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, backend, localRanks, jsonFile, dir, socketsPerPeer, socketIfname);
    }

    public RunSpec withLocalRanks(int ranks) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, backend, ranks, jsonFile, outDir, socketsPerPeer, socketIfname);
    }

    /** The watchdog: -T, or {@link Defaults#WATCHDOG_SECONDS} when -T is 0. */
    public long timeoutMillis() {
        return Defaults.watchdogMillis(timeoutSeconds);
    }

    public RunSpec withBackend(String resolvedBackend) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, resolvedBackend, localRanks, jsonFile, outDir, socketsPerPeer, socketIfname);
    }
}
