package dev.ncclbench.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * The flags that change what a rank measures, one "flag value" a line, in the words of the command line: what
 * every process of one job presents at the rendezvous, so that two processes started differently stop at once
 * with the flag named ("-d double on rank 1, -d float on rank 0") rather than later with a lost rank. Not -T, the
 * outputs or the progress bar: those may differ without changing a figure.
 */
public final class MeasuredFlags {
    private MeasuredFlags() {
    }

    public static String of(RunSpec spec) {
        List<String> lines = new ArrayList<>();
        lines.add("--collective " + String.join(",", spec.collectives()));
        lines.add("-b " + spec.minBytes());
        lines.add("-e " + spec.maxBytes());
        lines.add("-f " + spec.stepFactor());
        lines.add("-i " + spec.stepBytes());
        lines.add("-n " + spec.iters());
        lines.add("-w " + spec.warmupIters());
        lines.add("-m " + spec.aggIters());
        lines.add("-N " + spec.repeat());
        lines.add("-c " + spec.checkIters());
        lines.add("-o " + (spec.op() == null ? "" : spec.op().label()));
        lines.add("-d " + (spec.type() == null ? "" : spec.type().label()));
        lines.add("-r " + spec.root());
        lines.add("-a " + spec.average());
        lines.add("-z " + spec.blocking());
        lines.add("-g " + spec.gpusPerThread());
        lines.add("-t " + spec.threads());
        lines.add("-G " + spec.cudaGraph());
        lines.add("-I " + spec.perIterTiming());
        lines.add("--backend " + spec.backend());
        lines.add("--ranks " + spec.localRanks());
        lines.add("--sockets-per-peer " + spec.socketsPerPeer());
        lines.add("--socket-algo " + spec.socketAlgo());
        lines.add("--socket-chunk " + spec.socketChunk());
        if (spec.ncclTests().split() != null) {
            lines.add(spec.ncclTests().split()); // one process's groups must be every process's
        }
        return String.join("\n", lines);
    }
}
