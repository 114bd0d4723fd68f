package dev.ncclbench.arch;

import com.fasterxml.jackson.core.JsonGenerator;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every JSON document of java/main is serialised from a record (its model, or a small document record built from
 * it), never built by hand as a tree or a map: a new field is then one record component, and what is written is
 * what a reader binds. Issue 45 measured 5 files building trees and 7 documents as LinkedHashMaps; this keeps it at
 * output/Json alone.
 *
 * <p>Reading a tree stays allowed ({@code readTree}, {@code path}, {@code asText}): a reader looks at "kind" and
 * "schema_version" before binding so that a foreign or newer file is refused in one line, and the probe child's
 * answer is read field by field. Editing a tree read from an old file (snake_case keys, the v1 envelope) happens in
 * output/Json only. Streaming with a JsonGenerator is allowed in two places: NanAsNull (the serializer itself) and
 * NcclTestsJsonWriter, which writes nccl-tests' own -J format key for key in util.cu's order.
 */
class DocumentsFromRecordsTest {
    private static final Path MAIN = Path.of(System.getProperty("ncclbench.basedir", ".")).resolve("java/main");
    /** The measure of issue 45 (grep -rln of these in java/main). */
    private static final Pattern HAND_BUILT =
            Pattern.compile("createObjectNode|putObject|putArray|ObjectNode|LinkedHashMap<String, ?Object>");
    /** A document as a map of names to anything: a record says its fields, a map does not. */
    private static final Pattern MAP_DOCUMENT = Pattern.compile("Map<String, ?Object>");
    private static final Set<String> TREE_HELPERS = Set.of("dev/ncclbench/output/Json.java");

    private static JavaClasses main;

    @BeforeAll
    static void importMain() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.ncclbench");
        assertTrue(main.contain("dev.ncclbench.cli.Main"), "java/main's classes are imported");
    }

    private static List<String> sourcesMatching(Pattern p) throws IOException {
        assertTrue(Files.isDirectory(MAIN.resolve("dev/ncclbench")), MAIN.toString());
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    return p.matcher(Files.readString(f)).find();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).map(f -> MAIN.relativize(f).toString().replace('\\', '/')).sorted().toList();
        }
    }

    @Test
    void noSourceBuildsATreeOrAMapDocumentOutsideOutputJson() throws IOException {
        List<String> trees = sourcesMatching(HAND_BUILT).stream().filter(f -> !TREE_HELPERS.contains(f)).toList();
        assertEquals(List.of(), trees, "build the document as a record and serialise it (see GateJson.Document)");
        assertEquals(List.of(), sourcesMatching(MAP_DOCUMENT), "a Map<String, Object> is a document without a model:"
                + " make it a record");
    }

    /** Bytecode, so that a fully qualified name or a var counts as much as an import. */
    @Test
    void noClassOutsideOutputConstructsJsonNodes() {
        ArchRule nodes = noClasses().that().resideOutsideOfPackage("dev.ncclbench.output")
                .should().dependOnClassesThat().resideInAPackage("com.fasterxml.jackson.databind.node..")
                .because("a JSON tree built by hand is a second model of the document");
        nodes.check(main);
        DescribedPredicate<JavaCall<?>> makesATree = DescribedPredicate.describe("creates a JSON tree",
                c -> c.getTargetOwner().getPackageName().startsWith("com.fasterxml.jackson")
                        && Set.of("createObjectNode", "createArrayNode", "valueToTree").contains(c.getName()));
        noClasses().that().resideOutsideOfPackage("dev.ncclbench.output").should().callCodeUnitWhere(makesATree)
                .check(main);
    }

    @Test
    void onlyTheNcclTestsFormatIsStreamedByHand() {
        noClasses().that().resideOutsideOfPackage("dev.ncclbench.output")
                .and().haveNameNotMatching("dev\\.ncclbench\\.results\\.NcclTestsJsonWriter(\\$.*)?")
                .should().dependOnClassesThat().areAssignableTo(JsonGenerator.class)
                .because("only nccl-tests' -J is written key for key; our documents are records")
                .check(main);
    }
}
