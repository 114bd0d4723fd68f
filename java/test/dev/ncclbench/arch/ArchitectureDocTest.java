package dev.ncclbench.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Member;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/architecture.md names where each decision lives as {@code package/Class} (or {@code package/Class.member}), and
 * the arch tests that hold it as {@code arch/SomeTest}: each name must be a class of java/main (the arch tests: of
 * java/test), and each member a method, field or nested class of that class, so a rename or a move leaves no page
 * pointing at nothing. The decision table is held tighter: each row's "Read by" classes must name the class of its
 * "The one place" in their source, so a reader that stopped reading the one place (or never did) is caught.
 */
class ArchitectureDocTest {
    private static final Path ROOT = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();
    private static final Path MAIN = ROOT.resolve("java/main");
    /** "cli/Main", "backend/nccl/NcclReadiness", "sweep/SweepRunner.run", "Host.once" after a named class is not. */
    private static final Pattern NAME = Pattern.compile("(?<![\\w/.])((?:[a-z]+/)+)([A-Z]\\w*)(?:\\.([a-zA-Z]\\w*))?");
    /** A class named without its folder in the table ("MaxBytes", "SweepRunner"): two humps at least. */
    private static final Pattern BARE = Pattern.compile("(?<![\\w/.-])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\\b");

    @Test
    void everyClassAndMemberThePageNamesExists() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/architecture.md"));
        List<String> missing = new ArrayList<>();
        int named = 0;
        Matcher m = NAME.matcher(page);
        while (m.find()) {
            String dir = m.group(1);
            if (dir.startsWith("docs/") || dir.startsWith("scripts/") || dir.startsWith("java/")) {
                continue;
            }
            named++;
            String tree = dir.startsWith("arch/") ? "java/test" : "java/main";
            Path source = ROOT.resolve(tree + "/dev/ncclbench/" + dir + m.group(2) + ".java");
            if (!Files.isRegularFile(source)) {
                missing.add(m.group() + " (no " + ROOT.relativize(source) + ")");
            } else if (m.group(3) != null && !hasMember(dir + m.group(2), m.group(3))) {
                missing.add(m.group() + " (" + m.group(2) + " has no method, field or nested class " + m.group(3) + ")");
            }
        }
        assertTrue(named > 40, "the page names " + named + " classes: did its form change?");
        assertEquals(List.of(), missing, "docs/architecture.md names what the code does not have");
    }

    @Test
    void eachDecisionIsReadByTheClassesItsRowNames() throws IOException {
        Map<String, List<Path>> bySimpleName = new HashMap<>();
        try (Stream<Path> all = Files.walk(MAIN)) {
            all.filter(p -> p.toString().endsWith(".java")).forEach(p -> bySimpleName
                    .computeIfAbsent(p.getFileName().toString().replace(".java", ""), k -> new ArrayList<>()).add(p));
        }
        List<String> wrong = new ArrayList<>();
        int rows = 0;
        int readers = 0;
        for (String[] row : decisionTable()) {
            rows++;
            Set<String> onePlace = new LinkedHashSet<>();
            Matcher p = NAME.matcher(row[1]);
            while (p.find()) {
                onePlace.add(p.group(2));
            }
            if (onePlace.isEmpty()) {
                wrong.add("'" + row[0] + "': its one place names no package/Class");
                continue;
            }
            for (String reader : readers(row[2], bySimpleName)) {
                if (onePlace.contains(reader)) {
                    continue;
                }
                readers++;
                List<Path> files = bySimpleName.get(reader);
                if (files == null) {
                    wrong.add("'" + row[0] + "': read by " + reader + ", which java/main does not have");
                    continue;
                }
                String source = Files.readString(files.get(0));
                if (onePlace.stream().noneMatch(c -> Pattern.compile("\\b" + c + "\\b").matcher(source).find())) {
                    wrong.add("'" + row[0] + "': read by " + reader + ", whose source names none of " + onePlace);
                }
            }
        }
        assertTrue(rows > 15 && readers > 15, rows + " rows, " + readers + " readers: did the table's form change?");
        assertEquals(List.of(), wrong, "docs/architecture.md's decision table against the code");
    }

    /** The rows of "Where each decision lives": decision, the one place, read by. */
    private static List<String[]> decisionTable() throws IOException {
        List<String[]> rows = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(ROOT.resolve("docs/architecture.md"))) {
            if (line.startsWith("## ")) {
                in = line.startsWith("## Where each decision lives");
                continue;
            }
            if (!in || !line.startsWith("|") || line.startsWith("| Decision ") || line.startsWith("|---")) {
                continue;
            }
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            assertEquals(3, cells.length, "a row of three cells: " + line);
            rows.add(cells);
        }
        return rows;
    }

    /**
     * The classes a "Read by" cell names: package/Class, and a bare class name that is one class of java/main; an
     * arch test in brackets holds the row, it does not read the decision. Words that name no class ("doctor",
     * "help texts") say who in words and are not checked.
     */
    private static Set<String> readers(String cell, Map<String, List<Path>> bySimpleName) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = NAME.matcher(cell);
        while (m.find()) {
            if (!m.group(1).startsWith("arch/")) {
                out.add(m.group(2));
            }
        }
        Matcher b = BARE.matcher(cell);
        while (b.find()) {
            List<Path> files = bySimpleName.get(b.group(1));
            if (files != null && files.size() == 1 && !cell.contains("arch/" + b.group(1))) {
                out.add(b.group(1));
            }
        }
        return out;
    }

    /** Whether the class (its path under dev/ncclbench, without .java) declares a method, field or class so named. */
    private static boolean hasMember(String path, String member) {
        Class<?> type;
        try {
            type = Class.forName("dev.ncclbench." + path.replace('/', '.'), false,
                    ArchitectureDocTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return false;
        }
        return Stream.of(type.getDeclaredMethods(), type.getDeclaredFields(), type.getDeclaredClasses())
                .flatMap(Stream::of).map(x -> x instanceof Member mem ? mem.getName() : ((Class<?>) x).getSimpleName())
                .anyMatch(member::equals);
    }
}
