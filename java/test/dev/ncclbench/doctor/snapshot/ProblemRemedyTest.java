package dev.ncclbench.doctor.snapshot;

import dev.ncclbench.doctor.rules.EvidenceMissing;
import dev.ncclbench.doctor.rules.HostEvidence;
import dev.ncclbench.finding.Finding;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What doctor advises when it could not read something depends on why and on who was refused: it told root to "run
 * doctor as root", and told a host without lspci the same. Real lspci text, as an unprivileged user gets it.
 */
class ProblemRemedyTest {
    /** What lspci -vvv prints for a bridge's capabilities to a user who may not read them. */
    private static final String DENIED = "00:01.0 PCI bridge: Intel Corporation Device 1234 (rev 02)\n"
            + "\tControl: I/O+ Mem+ BusMaster+\n\tCapabilities: <access denied>\n\tKernel driver in use: pcieport\n";

    private static String remedyFor(HostFiles files) {
        AcsCollector.parse(DENIED, files);
        List<Problem> problems = files.problems();
        assertEquals(1, problems.size(), problems.toString());
        assertFalse(problems.get(0).detail().contains("as root"), "the detail says what happened: " + problems.get(0));
        return problems.get(0).remedy();
    }

    @Test
    void rootIsNotToldToRunAsRoot() {
        assertEquals(HostFiles.ROOT_REFUSED, remedyFor(new HostFiles(Path.of("/"), true, true)));
        assertTrue(remedyFor(new HostFiles(Path.of("/"), true, false)).startsWith("run doctor as root"));
        assertTrue(remedyFor(HostFiles.capture(Path.of("/nonexistent"))).startsWith("re-capture the host as root"));
    }

    @Test
    void theFindingsFixIsTheProblemsOwn() {
        HostFiles files = new HostFiles(Path.of("/"), true, true);
        files.problem("acs", "lspci -vvv", "lspci is not installed: ACS redirect was not checked", "install pciutils");
        HostSnapshot s = HostSnapshot.builder().hostname("h").source("live").problems(files.problems()).build();
        Finding f = new EvidenceMissing().check(HostEvidence.of(s)).stream().filter(x -> x.title().contains("lspci is not installed"))
                .findFirst().orElseThrow();
        assertEquals(List.of("install pciutils"), f.remedy());
    }
}
