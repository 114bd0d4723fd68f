package dev.ncclbench.arch;

import dev.ncclbench.ChildCli;
import dev.ncclbench.CliRun;
import dev.ncclbench.diagnosis.CatalogLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command reads the fabric catalog {@link CatalogLocation} picks: no other class of java/main loads one, and a
 * command started from another folder reads the catalog of the ncclbench that runs, not one lying in that folder.
 */
class CatalogReadersTest {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();
    private static final Path MAIN = BASE.resolve(Path.of("java", "main"));

    @Test
    void onlyCatalogLocationDecidesWhichCatalogIsRead() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> all = Files.walk(MAIN)) {
            for (Path f : all.filter(p -> p.toString().endsWith(".java")).toList()) {
                String name = f.getFileName().toString();
                if (name.equals("CatalogLocation.java") || name.equals("FabricCatalog.java")) {
                    continue;
                }
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String l = lines.get(i);
                    if (l.contains("FabricCatalog.load(") || l.contains("FabricCatalog.builtIn(")
                            || l.contains("fabric-catalog.txt\"") || l.contains("IN_INSTALL")) {
                        found.add(MAIN.relativize(f) + ":" + (i + 1) + ": " + l.strip());
                    }
                }
            }
        }
        assertEquals(List.of(), found, "read the catalog through CatalogLocation.read");
    }

    @Test
    void aGivenCatalogWinsThenTheInstallsThenTheBuiltInCopy(@TempDir Path dir) throws IOException {
        Path install = dir.resolve("install");
        Path given = dir.resolve("mine.txt");
        assertEquals(Optional.of(given), CatalogLocation.file(given, Optional.of(install)), "--catalog as given");
        assertEquals(Optional.empty(), CatalogLocation.file(null, Optional.of(install)), "none there: the built-in copy");
        assertEquals(Optional.empty(), CatalogLocation.file(null, Optional.empty()), "no install folder: the built-in copy");
        Path file = install.resolve(CatalogLocation.IN_INSTALL);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "x ethernet 1 0.8 0.9 socket\n");
        assertEquals(Optional.of(file), CatalogLocation.file(null, Optional.of(install)));
    }

    /**
     * A real child started from a folder holding a catalog of its own: doctor's site links come from the install's
     * catalog (-Dncclbench.basedir stands for scripts/ncclbench's checkout), and --catalog, a relative name, from
     * that folder.
     */
    @Test
    void aCommandStartedFromAnotherFolderReadsTheInstallsCatalog(@TempDir Path dir) throws Exception {
        Path install = dir.resolve("install");
        Path installed = install.resolve(CatalogLocation.IN_INSTALL);
        Files.createDirectories(installed.getParent());
        Files.writeString(installed, "inst-eth ethernet 0.0625 0.8 0.95 socket installed\nsite eth0 inst-eth\n");
        Path work = dir.resolve("work");
        Path local = work.resolve(CatalogLocation.IN_INSTALL);
        Files.createDirectories(local.getParent());
        Files.writeString(local, "work-eth ethernet 1.25 0.8 0.95 socket working dir\nsite eth0 work-eth\n");
        Files.writeString(work.resolve("mine.txt"), "mine-eth ethernet 0.125 0.8 0.95 socket given\nsite eth0 mine-eth\n");
        Path host = BASE.resolve(Path.of("java", "test-resources", "doctor", "hosts", "a100-two-nic"));

        // the host's eth0 reports no usable rate: the site line declares it, and the finding says whose line it was
        String plain = doctor(install, work, "--root", host.toString());
        assertTrue(plain.contains(installed + ":2 (site: eth0 is inst-eth)"), plain);
        assertFalse(plain.contains("work-eth"), "the working folder's catalog is not read: " + plain);

        String given = doctor(install, work, "--root", host.toString(), "--catalog", "mine.txt");
        assertTrue(given.contains("mine.txt:2 (site: eth0 is mine-eth)"), given);
        assertFalse(given.contains("inst-eth") || given.contains("work-eth"), given);

        // the sweep's --fabric (as gate's, fleet's and preflight's) looks the id up in the same catalog
        String[] sweep = run(install, work, "sweep", "--backend", "socket", "--ranks", "2", "-b", "8", "-e", "8",
                "--no-progress", "--fabric", "work-eth");
        assertEquals("2", sweep[0], sweep[1]);
        assertTrue(sweep[1].contains("unknown fabric 'work-eth'; the catalog has: inst-eth"), sweep[1]);
    }

    private static String doctor(Path install, Path cwd, String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("doctor", "--json", "-", "--no-probe-nccl"));
        a.addAll(List.of(args));
        String out = run(install, cwd, a.toArray(String[]::new))[1];
        assertTrue(out.contains("\"kind\" : \"ncclbench.doctor\""), "a doctor report: " + out);
        return out;
    }

    /** ncclbench in a child JVM started in {@code cwd}: its exit code and its output, stderr included. */
    private static String[] run(Path install, Path cwd, String... args) throws Exception {
        CliRun r = ChildCli.run(install, cwd, args);
        return new String[] {String.valueOf(r.code()), r.out() + r.err()};
    }
}
