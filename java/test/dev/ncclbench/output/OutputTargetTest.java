package dev.ncclbench.output;

import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The one check of an output flag: a sweep's --json names --out and its journal, other flags only themselves. */
class OutputTargetTest {
    private static String refused(Runnable r) {
        NcclbenchException e = assertThrows(NcclbenchException.class, r::run);
        assertEquals(2, e.exitCode().code);
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aFolderIsRefusedWithAFileNameInIt(@TempDir Path dir) {
        assertEquals("--json " + dir + " is a folder; name a file in it (e.g. --json " + dir.resolve("result.json")
                + ") or use --out " + dir, refused(() -> OutputTarget.checkRunFile("--json", dir)));
        assertEquals("-J " + dir + " is a folder; name a file in it (e.g. -J " + dir.resolve("result.json") + ")",
                refused(() -> OutputTarget.check("-J", dir)));
        assertEquals("--junit " + dir + " is a folder; name a file in it (e.g. --junit " + dir.resolve("junit.xml") + ")",
                refused(() -> OutputTarget.check("--junit", dir)));
    }

    @Test
    void aMissingFolderIsNeverCreated(@TempDir Path dir) {
        Path f = dir.resolve("no/such/r.json");
        assertEquals("--json " + f + ": the folder " + f.getParent() + " does not exist; create it first (ncclbench"
                + " creates folders only under --out)", refused(() -> OutputTarget.checkRunFile("--json", f)));
        assertEquals("--html " + f + ": the folder " + f.getParent() + " does not exist; create it first",
                refused(() -> OutputTarget.check("--html", f)));
        assertEquals(false, Files.exists(dir.resolve("no")));
    }

    @Test
    void anEarlierResultIsKeptUnlessForced(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("r.json"), "{}");
        assertEquals("--json " + f + " already exists (an earlier run's result); choose another name, or --force to"
                + " replace it", refused(() -> OutputTarget.refuseExisting("--json", f, false, "--force")));
        OutputTarget.refuseExisting("--json", f, true, "--force");
        OutputTarget.refuseExisting("--json", dir.resolve("new.json"), false, "--force");
        OutputTarget.refuseExisting("--json", null, false, "--force");
    }
}
