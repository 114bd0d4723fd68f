package dev.ncclbench.arch;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package rules of java/main, read from the bytecode so that a type written by its fully qualified name counts
 * as much as an imported one: no package cycle (a subpackage is a package of its own), no cycle of rooms either (no
 * arrow back up the floors), the readers of a result never reaching the engine, org.bytedeco only in backend.nccl and
 * internal, and cli never reaching into internal.
 */
@AnalyzeClasses(packages = "dev.ncclbench", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageStructureTest {
    /** Every package is its own slice, the root package too: diagnosis and diagnosis.facts may not form a cycle. */
    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass type) {
            String pkg = type.getPackageName();
            return pkg.equals("dev.ncclbench") || pkg.startsWith("dev.ncclbench.")
                    ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "each package under dev.ncclbench";
        }
    };

    @ArchTest
    static final ArchRule noPackageCycles = slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles();

    /**
     * Each room (a top-level package with its subpackages, the root package one more) as one slice: a room stands
     * above all it imports, so no arrow runs back up the floors. Package by package there was no cycle when choices
     * read diagnosis.facts' NET names, yet room by room it was one (diagnosis reads results, results reads choices);
     * the NET names now live beside the transports in nccllog, which both read.
     */
    private static final SliceAssignment EACH_ROOM = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass type) {
            String pkg = type.getPackageName();
            if (pkg.equals("dev.ncclbench")) {
                return SliceIdentifier.of("(root)");
            }
            if (!pkg.startsWith("dev.ncclbench.")) {
                return SliceIdentifier.ignore();
            }
            return SliceIdentifier.of(pkg.substring("dev.ncclbench.".length()).split("\\.")[0]);
        }

        @Override
        public String getDescription() {
            return "each room (top-level package with its subpackages) under dev.ncclbench";
        }
    };

    @ArchTest
    static final ArchRule noArrowBackUpTheFloors = slices().assignedFrom(EACH_ROOM).should().beFreeOfCycles();

    /**
     * The rooms that read or judge a finished result never import the engine that measures one: the offline gate
     * runs where no GPU, backend or launcher is. The path verdict's inputs (--fabric, --catalog, --socket-floor:
     * diagnosis/RouteOptions) live beside the catalog they read, so gate and report need nothing from sweep.
     */
    @ArchTest
    static final ArchRule resultReadersStayOutOfTheEngine = noClasses()
            .that().resideInAnyPackage("dev.ncclbench.gate..", "dev.ncclbench.report..", "dev.ncclbench.baseline..",
                    "dev.ncclbench.results..", "dev.ncclbench.choices..", "dev.ncclbench.diagnosis..",
                    "dev.ncclbench.nccllog..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.ncclbench.sweep..", "dev.ncclbench.rendezvous..");

    @ArchTest
    static final ArchRule nativeCodeStaysBehindItsBoundary = noClasses()
            .that().resideOutsideOfPackages("dev.ncclbench.backend.nccl..", "dev.ncclbench.internal..")
            .should().dependOnClassesThat().resideInAPackage("org.bytedeco..");

    @ArchTest
    static final ArchRule cliNeverReachesIntoInternal = noClasses()
            .that().resideInAPackage("dev.ncclbench.cli")
            .should().dependOnClassesThat().resideInAPackage("dev.ncclbench.internal..");

    /**
     * cli builds requests and renders what comes back: it reaches each command's engine through one library call,
     * never the rooms behind it (the log reader, the interface rules, a rule book's rules, a host's evidence, the
     * store, a backend's own classes). A command that needs one of these needs a library call in its package.
     */
    @ArchTest
    static final ArchRule cliStaysOutOfTheEngineRooms = noClasses()
            .that().resideInAPackage("dev.ncclbench.cli")
            .should().dependOnClassesThat().resideInAnyPackage("dev.ncclbench.nccllog..", "dev.ncclbench.netif..",
                    "dev.ncclbench.gate.curve..", "dev.ncclbench.doctor.rules..", "dev.ncclbench.doctor.compare..",
                    "dev.ncclbench.doctor.snapshot..", "dev.ncclbench.doctor.predict..", "dev.ncclbench.diagnosis.facts..",
                    "dev.ncclbench.diagnosis.rules..", "dev.ncclbench.backend.nccl..", "dev.ncclbench.backend.socket..",
                    "dev.ncclbench.rendezvous..");

    /** The rules above pass trivially on an empty or wrong import: main's classes are there, the tests are not. */
    @ArchTest
    static void readsTheMainClassesOnly(JavaClasses classes) {
        assertTrue(classes.size() > 50, "imported " + classes.size() + " classes");
        assertTrue(classes.contain("dev.ncclbench.cli.Main"), "java/main's classes are imported");
        assertFalse(classes.contain(PackageStructureTest.class), "java/test's classes are left out");
    }
}
