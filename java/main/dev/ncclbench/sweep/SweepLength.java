package dev.ncclbench.sweep;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;

import java.util.List;
import java.util.Locale;

/**
 * How long a sweep will take, said before it starts when that is long. -e given alone steps from 32M by 1M as
 * nccl-tests' does (common.cu's defaults): `-e 1T`, lowered to 451 MiB on sockets, was 420 sizes and over an hour
 * with no word before it. Said, not refused: it is nccl-tests' rule and a legitimate sweep, and a prompt would hang
 * a batch job; the first Ctrl-C stops it within a second or two with the rows measured.
 *
 * <p>An estimate by a cost model, stated as one: each call costs a latency and its size at a rate for the backend's
 * kind (in host memory, the code warm-up's loopback model: 10 us + 1 GB/s; on GPUs 10 us + {@value #GPU_GBPS} GB/s,
 * which a node's NVLink beats and a 100 Gb/s NIC does not reach), times the calls a placement makes.
 */
final class SweepLength {
    /** Said from this long on: a default sweep (8 B to 128 MiB on sockets, to 8 GiB on GPUs) stays below it. */
    static final double SAY_FROM_SECONDS = 300;
    /** The GPU model's rate (algbw, GB/s). */
    static final double GPU_GBPS = 50;
    static final double GPU_LATENCY_US = 10;

    private SweepLength() {
    }

    /**
     * The line, or null for a sweep shorter than {@link #SAY_FROM_SECONDS} by the model.
     *
     * @param onGpu  the backend's buffers are on GPUs (its calls at the GPU model's rate)
     * @param nranks the ranks of one communicator (a split's group)
     */
    static String note(RunSpec spec, boolean onGpu, int nranks) {
        double seconds = seconds(spec, onGpu, nranks);
        if (seconds < SAY_FROM_SECONDS) {
            return null;
        }
        long rows = Passes.rowCount(spec, nranks);
        int sizes = spec.sizes().size();
        String what = rows == sizes ? sizes + " sizes" : rows + " rows of " + sizes + " sizes";
        String step = spec.range().stepFactor() > 1 ? "" : "; -f 2 gives " + Sizes.steps(spec.range().minBytes(), spec.range().maxBytes(), 2, 0).size()
                + " sizes";
        return what + " x 2 placements: about " + duration(seconds) + " by an estimate (" + callsPerPlacement(spec, onGpu)
                + " calls a placement at " + (onGpu ? (long) GPU_LATENCY_US + " us + " + (long) GPU_GBPS + " GB/s, on GPUs"
                : (long) CodeWarmup.MODEL_LATENCY_US + " us + 1 GB/s, the socket backend on loopback") + ")" + step
                + "; the first Ctrl-C stops it and keeps the rows";
    }

    /** The model's time of the whole sweep (s): every row of every pass, both placements. */
    static double seconds(RunSpec spec, boolean onGpu, int nranks) {
        int calls = callsPerPlacement(spec, onGpu);
        double us = 0;
        for (String name : spec.collectives()) {
            Collective c = Collectives.byName(name);
            if (c.skipOn(nranks) != null) {
                continue;
            }
            int roots = c.rooted() && spec.data().root() == -1 ? nranks : 1;
            for (RunSpec pass : Passes.of(spec, c)) {
                int elt = pass.data().type().bytes();
                List<Long> sizes = Passes.sizesOf(pass, c, nranks);
                for (long size : sizes) {
                    long bytes = c.counts(size / elt, elt, nranks).sizeBytes(pass.data().type());
                    us += 2.0 * roots * calls * callUs(bytes, onGpu);
                }
            }
        }
        return us * spec.iterations().repeat() / 1e6;
    }

    /**
     * A placement's calls: the synchronising one, -n x -m timed, on GPUs -n x -m more for the samples (without -I
     * and -G), and each -c check; in host memory a check's fill and comparison cost about a call each too.
     */
    static int callsPerPlacement(RunSpec spec, boolean onGpu) {
        int timed = spec.iterations().iters() * spec.iterations().aggIters() * Math.max(1, spec.devices().cudaGraph());
        int samples = onGpu && spec.devices().perIterTiming() == 0 && spec.devices().cudaGraph() == 0 ? spec.iterations().iters() * spec.iterations().aggIters() : 0;
        return 1 + timed + samples + spec.data().checkIters() * (onGpu ? 1 : 3);
    }

    private static double callUs(long bytes, boolean onGpu) {
        return onGpu ? GPU_LATENCY_US + bytes / (GPU_GBPS * 1e3) : CodeWarmup.callUs(bytes);
    }

    /** "8 min", "89 min", "2.5 h", "3 days". */
    static String duration(double seconds) {
        double min = seconds / 60;
        if (min < 90) {
            return Math.round(min) + " min";
        }
        double h = min / 60;
        return h < 48 ? String.format(Locale.ROOT, "%.1f h", h) : Math.round(h / 24) + " days";
    }
}
