package dev.ncclbench.sweep;

import dev.ncclbench.ChildJvm;
import dev.ncclbench.spec.MaxBytesSource;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sweep that will take long says so, with its sizes and an estimate, before its first size: a new user's `-e 1T`
 * (lowered to what fits, then nccl-tests' -b 32M and -i 1M) was 420 sizes and over an hour with no word.
 */
class SweepLengthTest {
    @TempDir
    Path dir;

    /** The sweep's flags as typed: -b, -e, -f, with the sweep's profile (nccl-tests' rule for one given alone). */
    private static RunSpec sweep(Long b, Long e, Long f) {
        return RunSpec.builder().range(SweepProfile.SWEEP.range(b, e, f, 1L << 20)).build();
    }

    @Test
    void theNewUsersDashEAloneIsHundredsOfSizesAndAboutAnHourOnSockets() {
        RunSpec spec = sweep(null, 451L << 20, null);
        String note = SweepLength.note(spec, false, 4);
        assertTrue(note != null && note.startsWith("420 sizes x 2 placements: about "), note);
        double min = SweepLength.seconds(spec, false, 4) / 60;
        assertTrue(min > 60 && min < 120, "the issue measured over an hour; the model says " + min + " min");
        assertTrue(note.contains("-f 2 gives 4 sizes"), "32M, 64M, 128M, 256M: " + note);
        assertTrue(note.contains("by an estimate (24 calls a placement at 10 us + 1 GB/s"), note);
    }

    @Test
    void aDefaultSweepSaysNothingOnEitherKindOfBackend() {
        RunSpec asked = sweep(null, null, null); // no -e: each backend's default, resolved by SpecForBackend
        RunSpec gpu = asked.withRange(asked.range().upTo(SweepProfile.SWEEP.maxBytes(true), MaxBytesSource.DEFAULT));
        assertNull(SweepLength.note(gpu, true, 8), "8 B to 8 GiB by -f 2 on GPUs: "
                + SweepLength.seconds(gpu, true, 8) + " s by the model");
        RunSpec host = gpu.withRange(gpu.range().upTo(128L << 20, gpu.range().maxBytesSource()));
        assertNull(SweepLength.note(host, false, 4), "8 B to 128 MiB by -f 2 on sockets: "
                + SweepLength.seconds(host, false, 4) + " s by the model");
    }

    @Test
    void dashEAloneOnGpusIsHoursAndSaysWhatItAssumes() {
        String note = SweepLength.note(sweep(null, 8L << 30, null), true, 8);
        assertTrue(note != null && note.startsWith("8161 sizes x 2 placements: about "), note);
        assertTrue(note.contains(" h by an estimate") || note.contains(" days by an estimate"), note);
        assertTrue(note.contains("10 us + 50 GB/s, on GPUs"), note);
        assertTrue(note.contains("-f 2 gives 9 sizes"), note);
    }

    @Test
    void durationsReadAsAPersonSaysThem() {
        assertEquals("8 min", SweepLength.duration(480));
        assertEquals("2.5 h", SweepLength.duration(9000));
        assertEquals("3 days", SweepLength.duration(3 * 86400));
    }

    /**
     * The newcomer's command line in a real process: the line is on stderr (and in the header) before any row, so
     * that a table sent to a file still tells the terminal. -Xmx2g pins what -e 1T is lowered to (170 MiB: 139 sizes).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void sweepDashEOneTeraSaysHowLongBeforeItsFirstSize() throws Exception {
        List<String> cmd = ChildJvm.command("sweep", "--no-progress", "--backend", "socket", "-e", "1T",
                "--json", dir.resolve("r.json").toString());
        cmd.set(1, "-Xmx2g");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                .directory(dir.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!Files.readString(err, StandardCharsets.UTF_8).contains(" placements: about ")) {
                assertTrue(p.isAlive(), "ended without saying how long: " + Files.readString(err, StandardCharsets.UTF_8));
                assertTrue(System.nanoTime() < deadline, "nothing said within 90 s: " + Files.readString(err, StandardCharsets.UTF_8));
                Thread.sleep(50);
            }
            String said = Files.readString(err, StandardCharsets.UTF_8);
            assertTrue(said.matches("(?s).*ncclbench: \\d{3} sizes x 2 placements: about \\d+ min by an estimate.*"
                    + "-f 2 gives 3 sizes.*"), said);
            assertTrue(Files.readString(out, StandardCharsets.UTF_8).lines().allMatch(l -> l.startsWith("#") || l.isBlank()),
                    "no row before it: " + Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
