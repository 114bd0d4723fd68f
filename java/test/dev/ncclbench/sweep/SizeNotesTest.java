package dev.ncclbench.sweep;

import dev.ncclbench.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A sweep whose sizes make no row of a collective is refused with the flag that fixes it: -f 2 where nccl-tests'
 * additive step jumps from -b past -e (a nccl-tests user's `-b 8 -e 1M` without -f), -e where it is too small.
 */
class SizeNotesTest {
    @TempDir
    Path dir;

    /** The one line of a refused sweep (exit 2, before any rank starts and before any file is written). */
    private String refused(String... args) throws Exception {
        String[] all = new String[args.length + 8];
        System.arraycopy(new String[] {"sweep", "--no-progress", "--backend", "socket", "--ranks", "4", "--out",
                dir.toString()}, 0, all, 0, 8);
        System.arraycopy(args, 0, all, 8, args.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, Main.run(all, new PrintWriter(out), new PrintWriter(err)), err + " / " + out);
        String e = err.toString().trim();
        assertEquals(1, e.lines().count(), e);
        try (var files = Files.list(dir)) {
            assertFalse(files.findAny().isPresent(), "a refused sweep writes nothing");
        }
        return e;
    }

    @Test
    void anAdditiveStepPastMaxSaysPassF2() throws Exception {
        assertEquals("ncclbench: no size from -b 8 to -e 1048576 makes a row of all_gather float on 4 ranks (the smallest"
                        + " that does is 64 B): -f 1 adds -i 1048576 at each step (nccl-tests' default), so the sweep is 8 B"
                        + " alone; pass -f 2 to double from -b as nccl-tests users do, or -b 64 or more",
                refused("--collective", "all", "-b", "8", "-e", "1M"));
    }

    @Test
    void aMaxBelowAWholeElementPerRankSaysRaiseE() throws Exception {
        // a rank's share is rounded down to 16 B, as nccl-tests rounds it: 4 ranks need 64 B
        assertEquals("ncclbench: no size from -b 8 to -e 48 makes a row of all_gather float on 4 ranks (the smallest that"
                + " does is 64 B); raise -e to 64 or more", refused("--collective", "all_gather", "-b", "8", "-e", "48", "-f", "2"));
    }

    @Test
    void aFactorPastMaxSaysASmallerF() throws Exception {
        assertEquals("ncclbench: no size from -b 8 to -e 1024 makes a row of reduce_scatter float on 4 ranks (the smallest"
                        + " that does is 64 B): -f 1024 steps past the sizes that would, so the sweep is 8 B alone; pass a"
                        + " smaller -f, or -b 64 or more",
                refused("--collective", "reduce_scatter", "-b", "8", "-e", "1K", "-f", "1024"));
    }
}
