package dev.ncclbench.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package rules of java/main, read from the sources' imports: no package cycle (a subpackage is a package of
 * its own), org.bytedeco only in backend.nccl and internal, and cli never reaching into internal.
 */
class PackageStructureTest {
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)\\s*;", Pattern.MULTILINE);

    private record Source(Path file, String pkg, List<String> imports) {
    }

    static List<Source> sources() throws IOException {
        Path root = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "main");
        List<Source> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String src = Files.readString(f);
                Matcher m = PACKAGE.matcher(src);
                if (!m.find()) {
                    continue;
                }
                List<String> imports = new ArrayList<>();
                Matcher i = IMPORT.matcher(src);
                while (i.find()) {
                    imports.add(i.group(1));
                }
                out.add(new Source(root.relativize(f), m.group(1), imports));
            }
        }
        assertTrue(out.size() > 50, "found the sources under " + root);
        return out;
    }

    /** dev.ncclbench.backend.nccl.NcclBackend -> dev.ncclbench.backend.nccl: the lower-case prefix. */
    static String packageOf(String type) {
        List<String> parts = new ArrayList<>();
        for (String p : type.split("\\.")) {
            if (!Character.isLowerCase(p.charAt(0))) {
                break;
            }
            parts.add(p);
        }
        return String.join(".", parts);
    }

    static Map<String, Set<String>> graph(List<Source> sources) {
        Map<String, Set<String>> edges = new TreeMap<>();
        for (Source s : sources) {
            for (String imp : s.imports()) {
                if (imp.startsWith("dev.ncclbench.")) {
                    String to = packageOf(imp);
                    if (!to.equals(s.pkg())) {
                        edges.computeIfAbsent(s.pkg(), k -> new TreeSet<>()).add(to);
                    }
                }
            }
        }
        return edges;
    }

    /** Strongly connected components of more than one package (Tarjan). */
    static List<Set<String>> cycles(Map<String, Set<String>> edges) {
        List<Set<String>> out = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        List<String> stack = new ArrayList<>();
        int[] counter = {0};
        Set<String> nodes = new TreeSet<>(edges.keySet());
        edges.values().forEach(nodes::addAll);
        for (String v : nodes) {
            if (!index.containsKey(v)) {
                strongConnect(v, edges, index, low, stack, counter, out);
            }
        }
        return out;
    }

    private static void strongConnect(String v, Map<String, Set<String>> edges, Map<String, Integer> index,
                                      Map<String, Integer> low, List<String> stack, int[] counter, List<Set<String>> out) {
        index.put(v, counter[0]);
        low.put(v, counter[0]);
        counter[0]++;
        stack.add(v);
        for (String w : edges.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strongConnect(w, edges, index, low, stack, counter, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.remove(stack.size() - 1);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }

    @Test
    void noPackageCycles() throws IOException {
        assertEquals(List.of(), cycles(graph(sources())), "package cycles in java/main");
    }

    @Test
    void theCycleFinderFindsACycle() {
        Map<String, Set<String>> g = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertEquals(List.of(Set.of("a", "b", "c")), cycles(g));
    }

    @Test
    void nativeCodeStaysBehindItsBoundary() throws IOException {
        List<String> leaks = new ArrayList<>();
        for (Source s : sources()) {
            boolean nativeSide = s.pkg().startsWith("dev.ncclbench.backend.nccl") || s.pkg().startsWith("dev.ncclbench.internal");
            for (String imp : s.imports()) {
                if (imp.startsWith("org.bytedeco") && !nativeSide) {
                    leaks.add(s.file() + " imports " + imp);
                }
                if (s.pkg().equals("dev.ncclbench.cli") && imp.startsWith("dev.ncclbench.internal")) {
                    leaks.add(s.file() + " imports " + imp + " (cli never reaches into internal)");
                }
            }
        }
        assertEquals(List.of(), leaks);
    }
}
