package dev.ncclbench.backend.nccl;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/selftest-compare.py, the GPU self-test's verdicts, on tables in nccl-tests' format (written here, not
 * from a run): one rank's in-place rows are "host only" and judged by +1 us; out of place at >= 64 MiB the best of
 * the -N cycles within 3%; a #wrong above 0 is said.
 */
class SelftestCompareTest {
    private static final String RANK = "#  Rank  0 Group  0 Pid   1234 on       h200 device  0 [0000:18:00] NVIDIA H200\n";

    private static String row(long size, double oopUs, double oopBw, int oopWrong, double ipUs, double ipBw, int ipWrong) {
        return String.format("%12d %12d float sum -1 %8.2f %8.2f 0.00 %d %8.2f %8.2f 0.00 %d%n", size, size / 4, oopUs, oopBw,
                oopWrong, ipUs, ipBw, ipWrong);
    }

    private static List<String> compare(Path dir, String nt, String nb) throws IOException, InterruptedException {
        Path a = Files.writeString(dir.resolve("nt.txt"), "### nccl-tests: all_reduce_perf\n" + RANK + nt);
        Path b = Files.writeString(dir.resolve("nb.txt"), "### sweep: ncclbench sweep\n" + RANK + nb);
        Process p;
        try {
            p = new ProcessBuilder("python3", "scripts/selftest-compare.py", a.toString(), b.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("no python3 here: " + e.getMessage());
            return List.of();
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        return out.lines().filter(l -> !l.startsWith("#")).toList();
    }

    private static String verdict(List<String> lines, long size, String place) {
        for (String l : lines) {
            String[] f = l.trim().split("\\s+", 12);
            if (f.length == 12 && f[0].equals(Long.toString(size)) && f[1].equals(place)) {
                return f[11];
            }
        }
        throw new AssertionError("no row " + size + " " + place + " in " + lines);
    }

    @Test
    void oneRanksInPlaceRowsAreHostOnlyAndJudgedByOneMicrosecond(@TempDir Path dir) throws Exception {
        long big = 64L << 20;
        List<String> out = compare(dir, row(big, 31, 2164, 0, 0.2, 335544, 0), row(big, 31.2, 2150, 0, 0.9, 74565, 0)
                + row(big, 31.1, 2151, 0, 1.5, 44000, 0));
        assertEquals("host only: ok", verdict(out, big, "ip"), "a 4x algbw 'gap' of a no-op is 0.7 us of host time");
        assertEquals("ok", verdict(out, big, "oop"));
    }

    @Test
    void outOfPlaceBigRowsTakeEachSidesBestCycleWithinThreePercent(@TempDir Path dir) throws Exception {
        long big = 1L << 30;
        String nt = row(big, 500, 2147, 0, 0.2, 1, 0) + row(big, 510, 2105, 0, 0.2, 1, 0);
        assertEquals("ok", verdict(compare(dir, nt, row(big, 530, 2026, 0, 0.2, 1, 0) + row(big, 505, 2126, 0, 0.2, 1, 0)),
                big, "oop"), "one slow cycle of three does not decide");
        assertEquals("SLOWER than 3%", verdict(compare(dir, nt, row(big, 530, 2026, 0, 0.2, 1, 0)), big, "oop"));
    }

    @Test
    void smallRowsAreJudgedByOneMicrosecondAndWrongDataIsSaid(@TempDir Path dir) throws Exception {
        List<String> out = compare(dir, row(8, 5.0, 0, 0, 0.2, 0, 0), row(8, 6.5, 0, 0, 0.3, 0, 2));
        assertEquals("SLOWER than +1 us", verdict(out, 8, "oop"));
        assertTrue(verdict(out, 8, "ip").startsWith("WRONG data"), out.toString());
    }
}
