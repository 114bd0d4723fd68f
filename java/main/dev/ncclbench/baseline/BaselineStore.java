package dev.ncclbench.baseline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.Json;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Baseline files: NAME.baseline.json under a folder ({@link BaselineFolder}), written atomically. */
public final class BaselineStore {
    public static final String SUFFIX = ".baseline.json";
    // Sorted map keys and indented; reading ignores fields a later version adds.
    private static final ObjectWriter JSON = Json.sortedPretty();
    private static final ObjectMapper READ = Json.mapper();

    private final Path dir;

    public BaselineStore(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    public Path pathOf(String name) {
        return dir.resolve(name + SUFFIX);
    }

    /**
     * A baseline by file path or by name in this folder.
     *
     * @throws NcclbenchException (usage) when it is missing, corrupt, or not a baseline: one line
     */
    public Baseline resolve(String nameOrFile) {
        return read(fileOf(nameOrFile));
    }

    /** The file {@link #resolve} reads: the path given, else NAME.baseline.json in this folder. */
    public Path fileOf(String nameOrFile) {
        Path p = Path.of(nameOrFile);
        return !Files.exists(p) && !nameOrFile.contains("/") ? pathOf(nameOrFile) : p;
    }

    /** Reads and checks one baseline file; a corrupt or foreign file is a usage error naming it. */
    public static Baseline read(Path file) {
        JsonNode tree;
        try {
            tree = READ.readTree(file.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw NcclbenchException.usage("baseline " + file + " does not exist");
        } catch (JsonProcessingException e) {
            throw NcclbenchException.usage("baseline " + file + " is corrupt (not JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot read baseline " + file + ": " + e.getMessage());
        }
        String kind = tree == null ? null : tree.path("kind").asText(null);
        if (tree == null || !tree.isObject() || !(Baseline.KIND.equals(kind) || Baseline.KIND_V1.equals(kind))) {
            throw NcclbenchException.usage(file + " is not a ncclbench baseline (no \"kind\": \"" + Baseline.KIND
                    + "\"; a result JSON is recorded with 'ncclbench baseline record')");
        }
        int version = tree.path("schema_version").asInt(-1);
        if (version != Baseline.SCHEMA_VERSION && !(version == 1 && Baseline.KIND_V1.equals(kind))) {
            throw NcclbenchException.usage("baseline " + file + " has schema_version " + version
                    + "; this ncclbench reads " + Baseline.SCHEMA_VERSION);
        }
        Baseline b;
        try {
            b = READ.treeToValue(tree, Baseline.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw NcclbenchException.usage("baseline " + file + " is corrupt: " + firstLine(e.getMessage()));
        }
        check(file, b);
        return b;
    }

    private static void check(Path file, Baseline b) {
        if (b.fingerprint() == null || b.entries() == null || b.entries().isEmpty()) {
            throw NcclbenchException.usage("baseline " + file + " is corrupt: it has no fingerprint or no entries");
        }
        for (Baseline.Entry e : b.entries()) {
            if (e.collective() == null || e.groups() == null || e.groups().isEmpty()
                    || e.groups().stream().anyMatch(g -> g == null || g.isEmpty() || g.contains(null))) {
                throw NcclbenchException.usage("baseline " + file + " is corrupt: an entry has no samples");
            }
        }
    }

    /** Written whole or not at all: a crash never leaves half a baseline. */
    public void write(Path file, Baseline b) {
        try {
            AtomicFile.write(file, JSON.writeValueAsString(b) + "\n");
        } catch (AtomicMoveNotSupportedException e) {
            throw NcclbenchException.usage("cannot rename atomically in " + file.toAbsolutePath().getParent()
                    + "; choose another --file");
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot write baseline " + file + ": " + e.getMessage()
                    + " (name a folder you can write with --baseline-dir, or a file with --file)");
        }
    }

    /** Every baseline file in the folder, by name; unreadable ones are reported by {@link #read}. */
    public List<Path> files() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot list " + dir + ": " + e.getMessage());
        }
    }

    /**
     * The baseline for a run: one with the same fingerprint id, else the newest with the same topology (an
     * upgrade changes versions, not hardware). Files that cannot be read are skipped here: only the chosen
     * one must be sound.
     */
    public Optional<Match> find(Fingerprint run) {
        return find(run, b -> true);
    }

    /** {@link #find(Fingerprint)} among the baselines that {@code usable} accepts. */
    public Optional<Match> find(Fingerprint run, java.util.function.Predicate<Baseline> usable) {
        List<Match> candidates = new ArrayList<>();
        for (Path p : files()) {
            Baseline b;
            try {
                b = read(p);
            } catch (NcclbenchException e) {
                continue;
            }
            if (b.fingerprint().topologyKey().equals(run.topologyKey()) && usable.test(b)) {
                candidates.add(new Match(p, b, b.fingerprint().id().equals(run.id())));
            }
        }
        return candidates.stream().max(Comparator.comparing(Match::exact)
                .thenComparing(m -> m.baseline().createdAt() == null ? "" : m.baseline().createdAt()));
    }

    /** A baseline found for a run; exact when every fingerprint field matches. */
    public record Match(Path file, Baseline baseline, boolean exact) {
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
