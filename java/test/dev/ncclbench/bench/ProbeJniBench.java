package dev.ncclbench.bench;

import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.internal.jni.NcclProbeNative;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The harness's own cost per native call on the launch path: a JavaCPP JNI call into the probe library
 * (and through it into the real ncclGetVersion). On a GPU the same boundary is crossed by each
 * ncclAllReduce launch; this is the part of "time per collective" that is ours, not NCCL's.
 * Run with scripts/bench/jni-overhead.sh. A benchmark, not a test: no assertions on time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProbeJniBench {
    private final int[] version = new int[1];

    @Setup
    public void open() {
        String lib = System.getProperty("ncclbench.bench.nccl");
        NcclProbe.open(lib == null ? null : Path.of(lib));
    }

    /** An empty-ish JNI call: the floor of the boundary (test hook, returns its argument). */
    @Benchmark
    public int jniFloor() {
        return NcclProbeNative.ncclprobe_test_raise(0);
    }

    /** JNI + int[] marshalling + dlsym + the real ncclGetVersion. */
    @Benchmark
    public int ncclGetVersion() {
        NcclProbeNative.ncclprobe_get_version(version);
        return version[0];
    }

    /** The checked Java wrapper, as the harness calls it. */
    @Benchmark
    public int wrapperVersion() {
        return NcclProbe.version();
    }
}
