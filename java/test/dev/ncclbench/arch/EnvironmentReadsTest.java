package dev.ncclbench.arch;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The process's environment is read once, at the command line's edge (cli.Main builds the {@code env.Host} from it), and
 * handed down: no backend, launcher, doctor or sweep reads the process's own, so a test hands them a host of its own and
 * a second command in the same JVM gets its own answers. Counted in the bytecode (calls and method references of
 * System.getenv, lambdas counted in their class), per top-level class, so that a new read anywhere fails here until it
 * takes the host instead. And what the environment decides is never kept in a static: such a static answers the
 * second host with the first one's answer (the alltoallv spread, the libraries found and the nccl readiness were).
 */
@AnalyzeClasses(packages = "dev.ncclbench", importOptions = ImportOption.DoNotIncludeTests.class)
class EnvironmentReadsTest {
    /** Where a read belongs, for good. */
    private static final Map<String, Integer> EDGE = Map.of(
            "dev.ncclbench.cli.Main", 1,
            // XDG_CACHE_HOME for JavaCPP's cache folder: the native loaders call it lazily on whichever thread loads a
            // preset first, some with no host in reach (internal/jni's HostReduce), and the folder is the process's,
            // not a run's answer (the probe child is handed the same folder as a -D, not by its environment)
            "dev.ncclbench.internal.jni.JavaCppCache", 1);

    /**
     * The types that hold what a host's environment decides: a static of one of these answers every later host with
     * the first one's answer.
     */
    private static final Set<String> HOST_ANSWERS = Set.of("dev.ncclbench.env.Host",
            "dev.ncclbench.env.NativeLibraries$Report", "dev.ncclbench.env.NativeLibraries$Found",
            "dev.ncclbench.env.ProbeResult", "dev.ncclbench.backend.Readiness", "dev.ncclbench.spec.NcclTestsSplit",
            "dev.ncclbench.launch.LaunchInfo");

    /**
     * The mutable statics main keeps, each the process's own for good, not a host's: what was loaded into the process
     * (dlopen and JNI load a library once per process, and NCCL and CUDA read their environment once, at their first
     * call) and the JVM's own state. A new one fails here: keep a host's answer with the host ({@code Host.once}).
     */
    private static final Set<String> PROCESS_STATE = Set.of(
            // CUDA fixes the devices it sees at cuInit, once per process (CUDA_VISIBLE_DEVICES is read then)
            "dev.ncclbench.backend.nccl.NcclBackend.smallestGpu",
            // libnccl.so.2 and libcudart.so.13 as dlopen loaded them: the first host's, for the process's life
            "dev.ncclbench.backend.nccl.NcclRuntime.loaded", "dev.ncclbench.backend.nccl.NcclRuntime.libraries",
            "dev.ncclbench.backend.nccl.NcclRuntime.version", "dev.ncclbench.backend.nccl.NcclRuntime.logFiles",
            "dev.ncclbench.backend.nccl.NcclRuntime.symbols", "dev.ncclbench.backend.nccl.NcclRuntime.hasAvg",
            // this JVM's compiler statistics (JitSettle reads the JVM's own counters)
            "dev.ncclbench.sweep.JitSettle.compilerStats", "dev.ncclbench.sweep.JitSettle.listedAt",
            // the project's JNI libraries, loaded once per process
            "dev.ncclbench.internal.jni.NativeLoader.loaded", "dev.ncclbench.internal.jni.NativeLoader.failure",
            "dev.ncclbench.internal.jni.HostReduce.loaded", "dev.ncclbench.internal.jni.HostReduce.why",
            "dev.ncclbench.internal.jni.HostReduce.avx2");

    @ArchTest
    static void theEnvironmentIsReadAtTheEdgeOnly(JavaClasses classes) {
        Map<String, Integer> reads = new TreeMap<>();
        for (JavaClass c : classes) {
            long n = Stream.concat(c.getMethodCallsFromSelf().stream(), c.getMethodReferencesFromSelf().stream())
                    .filter(EnvironmentReadsTest::isGetenv).count();
            if (n > 0) {
                reads.merge(topLevel(c.getName()), (int) n, Integer::sum);
            }
        }
        assertEquals(new TreeMap<>(EDGE), reads, "System.getenv past the edge: take the env.Host cli.Main built (a"
                + " command through cli.HostMixin; Backend's readiness and open, SweepRunner, DoctorOptions and FleetRun"
                + " take one)");
    }

    @ArchTest
    static void noStaticKeepsWhatAHostsEnvironmentDecides(JavaClasses classes) {
        Set<String> hostAnswers = new TreeSet<>();
        Set<String> mutable = new TreeSet<>();
        for (JavaClass c : classes) {
            for (JavaField f : c.getFields()) {
                if (!f.getModifiers().contains(JavaModifier.STATIC) || f.getModifiers().contains(JavaModifier.SYNTHETIC)) {
                    continue;
                }
                String name = c.getName() + "." + f.getName();
                if (HOST_ANSWERS.contains(f.getRawType().getName()) && !PROCESS_STATE.contains(name)) {
                    hostAnswers.add(name);
                }
                if (!f.getModifiers().contains(JavaModifier.FINAL)) {
                    mutable.add(name);
                }
            }
        }
        assertEquals(Set.of(), hostAnswers, "a static holding a host's answer: keep it with the host (Host.once)");
        assertEquals(new TreeSet<>(PROCESS_STATE), mutable, "mutable statics: a host's answer belongs with the host"
                + " (Host.once); the process's own state is listed here with why");
    }

    private static boolean isGetenv(JavaAccess<?> access) {
        return access.getTargetOwner().isEquivalentTo(System.class) && access.getName().equals("getenv");
    }

    /** A nested class's reads count in the class it is written in. */
    private static String topLevel(String name) {
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }
}
