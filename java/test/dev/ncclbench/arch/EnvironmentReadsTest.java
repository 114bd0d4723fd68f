package dev.ncclbench.arch;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The process's environment is read once, at the command line's edge (cli.Main), and handed down: a backend, doctor or
 * the sweep never reads the process's own, so a test hands them a map. launch and env exist to read what the machine
 * says and may read it themselves. Counted in the bytecode (calls and method references of System.getenv, lambdas
 * counted in their class), per top-level class, so that a new read anywhere fails here until it is passed down instead.
 */
@AnalyzeClasses(packages = "dev.ncclbench", importOptions = ImportOption.DoNotIncludeTests.class)
class EnvironmentReadsTest {
    /** Where a read belongs, for good. */
    private static final Map<String, Integer> EDGE = Map.of(
            "dev.ncclbench.cli.Main", 1,
            // the native loaders call it lazily on whichever thread is first, none holding the command line's map
            "dev.ncclbench.internal.jni.JavaCppCache", 1);

    /**
     * Reads left in the files of issue 45's lead, with the transitional overloads that serve them: each goes once its
     * caller passes the map Main read (then take it off this list; the test fails until it is).
     */
    private static final Map<String, Integer> PENDING = Map.of();

    @ArchTest
    static void theEnvironmentIsReadAtTheEdgeOnly(JavaClasses classes) {
        Map<String, Integer> reads = new TreeMap<>();
        for (JavaClass c : classes) {
            String pkg = c.getPackageName();
            if (within(pkg, "dev.ncclbench.launch") || within(pkg, "dev.ncclbench.env")) {
                continue;
            }
            long n = Stream.concat(c.getMethodCallsFromSelf().stream(), c.getMethodReferencesFromSelf().stream())
                    .filter(EnvironmentReadsTest::isGetenv).count();
            if (n > 0) {
                reads.merge(topLevel(c.getName()), (int) n, Integer::sum);
            }
        }
        Map<String, Integer> allowed = new TreeMap<>(EDGE);
        allowed.putAll(PENDING);
        assertEquals(allowed, reads, "System.getenv outside launch and env: take the map cli.Main read as a parameter"
                + " (Backend's readiness and open, SweepRunner, DoctorOptions and FleetRun take one)");
    }

    private static boolean isGetenv(JavaAccess<?> access) {
        return access.getTargetOwner().isEquivalentTo(System.class) && access.getName().equals("getenv");
    }

    private static boolean within(String pkg, String parent) {
        return pkg.equals(parent) || pkg.startsWith(parent + ".");
    }

    /** A nested class's reads count in the class it is written in. */
    private static String topLevel(String name) {
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }
}
