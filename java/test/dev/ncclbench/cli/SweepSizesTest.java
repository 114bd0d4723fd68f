package dev.ncclbench.cli;

import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sizes as nccl-tests' are (defaults 32M, additive 1M steps once -b or -e is given), without duplicate rows. */
class SweepSizesTest {
    @TempDir
    Path dir;

    private static RunSpec resolve(String... args) {
        SweepCommand cmd = OnHost.parsed("sweep", Map.of(), args);
        return cmd.resolve();
    }

    @Test
    void defaultsAsNcclTestsHasThem() {
        RunSpec e = resolve("-e", "64M");
        assertEquals(32L << 20, e.range().minBytes(), "-e alone: -b is nccl-tests' 32M");
        assertEquals(1, e.range().stepFactor(), "and the step nccl-tests' -i 1M");
        assertEquals(33, e.sizes().size(), "+1M steps from 32M to 64M");
        RunSpec b = resolve("-b", "1M");
        assertEquals(32L << 20, b.range().maxBytes(), "-b alone: -e is nccl-tests' 32M");
        assertEquals(32, b.sizes().size(), "+1M steps from 1M to 32M");
        RunSpec all = resolve();
        assertEquals(8, all.range().minBytes());
        assertTrue(all.range().max().isEmpty(), "-e not given: the backend's default, resolved by the sweep");
        assertEquals(2, all.range().stepFactor());
    }

    /**
     * What nccl-tests refuses ("invalid sizes for 'minbytes' and 'maxbytes'": -e alone below its 32M -b, -b alone above
     * its 32M -e) is refused, with the command line that does what was meant; so is what it loops on for ever (-b 0
     * with -f 2) and -e 0, which measures nothing. A new user's `-e 1M` was a one-row sweep without a word.
     */
    @Test
    void rangesNcclTestsRefusesOrNeverEndsAreRefusedWithTheFix() {
        assertRefused("-e 1 MiB given alone is below -b's 32 MiB", "e.g. -b 8 -e 1M -f 2", "-e", "1M");
        assertRefused("-b 256 MiB given alone is above -e's 32 MiB", "-b 256M -e 256M for that one size", "-b", "256M");
        assertRefused("-e 0 sweeps nothing", "-e 128M", "-e", "0");
        assertRefused("-e 0 sweeps nothing", "-e 128M", "-b", "0", "-e", "0");
        assertRefused("-b 0 with -f 2 never grows", "-b 8", "-b", "0", "-e", "1M", "-f", "2");
        assertEquals(List.of(0L, 1L << 20), resolve("-b", "0", "-e", "1M").sizes(), "-b 0 adding -i: nccl-tests' 0, 1M");
    }

    private static void assertRefused(String says, String fix, String... args) {
        dev.ncclbench.NcclbenchException e = org.junit.jupiter.api.Assertions.assertThrows(
                dev.ncclbench.NcclbenchException.class, () -> resolve(args), String.join(" ", args));
        assertEquals(2, e.exitCode().code, e.getMessage());
        assertTrue(e.getMessage().contains(says) && e.getMessage().contains(fix), e.getMessage());
    }

    private String sweep(String... args) {
        List<String> a = new ArrayList<>(List.of("sweep", "--no-progress", "--backend", "socket", "--ranks", "2", "-n", "1",
                "-w", "0", "--json", dir.resolve("r" + System.nanoTime() + ".json").toString()));
        a.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.run(a.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err)), err.toString());
        return out.toString();
    }

    private static List<Long> rowSizes(String table) {
        List<Long> sizes = new ArrayList<>();
        table.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .forEach(l -> sizes.add(Long.parseLong(l.trim().split("\\s+")[0])));
        return sizes;
    }

    @Test
    void sizesThatRoundToTheSameRowAreMeasuredOnceAndSaidSo() {
        String t = sweep("-b", "1000", "-e", "1003", "-i", "1");
        assertEquals(List.of(1000L), rowSizes(t), t);
        assertTrue(t.contains("4 sizes asked, rows: all_reduce 1"), t);
    }

    @Test
    void aFractionalSizeBelowOneElementMakesNoZeroByteRow() {
        String t = sweep("-b", "1.3", "-e", "8", "-i", "1");
        assertEquals(List.of(4L, 8L), rowSizes(t), t);
    }

    @Test
    void theResultRecordsTheCommandLineTheBackendsAndEachRowsCycle() throws Exception {
        Path json = dir.resolve("n2.json");
        String[] args = {"sweep", "--no-progress", "--backend", "socket", "--ranks", "2", "-n", "1", "-w", "0", "-b", "8",
                "-e", "16", "-f", "2", "-N", "2", "--json", json.toString()};
        StringWriter err = new StringWriter();
        assertEquals(0, Main.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err)), err.toString());
        dev.ncclbench.results.ResultDocument doc = dev.ncclbench.results.ResultFiles.read(json);
        List<String> typed = new ArrayList<>(List.of("ncclbench"));
        typed.addAll(List.of(args));
        assertEquals(typed, doc.commandLine());
        assertEquals("socket", doc.backendAsked());
        assertEquals("socket", doc.backend());
        assertEquals(List.of(0, 0, 1, 1), doc.rows().stream().map(dev.ncclbench.results.ResultRow::cycle).toList());
    }
}
