package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The launcher's node names by rank (Slurm's host list syntax), and the names drain.txt takes. */
class NodeListTest {

    @Test
    void theFlagTakesSlurmHostListsAndABadOneNamesTheFlag() {
        assertEquals(Optional.of(List.of("gpu01", "gpu02", "gpu03", "gpu07", "login1")),
                NodeList.of("gpu[01-03,07],login1", Host.of(Map.of()), 5));
        assertEquals(Optional.of(List.of("r1n1", "r1n2", "r2n1", "r2n2")), NodeList.of("r[1-2]n[1-2]", Host.of(Map.of()), 4));
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> NodeList.of("gpu[01-x]", Host.of(Map.of()), 2));
        assertTrue(e.getMessage().contains("--node-list"), e.getMessage());
    }

    @Test
    void flagMustNameEveryRankAndSlurmOnlyCountsWithOneTaskPerNode() {
        assertThrows(NcclbenchException.class, () -> NodeList.of("a,b", Host.of(Map.of()), 3));
        assertEquals(Optional.of(List.of("n1", "n2")), NodeList.of(null,
                Host.of(Map.of("SLURM_JOB_NODELIST", "n[1-2]", "SLURM_NNODES", "2", "SLURM_NTASKS", "2")), 2));
        assertEquals(Optional.empty(), NodeList.of(null,
                Host.of(Map.of("SLURM_JOB_NODELIST", "n[1-2]", "SLURM_NNODES", "2", "SLURM_NTASKS", "4")), 4));
    }

    @Test
    void namesComeFromTheNodeThenTheLauncherThenTheRank() {
        List<String> joined = java.util.Arrays.asList("a", null, "a", "d");
        assertEquals(List.of("a#0", "rank 1", "a#2", "d"), FleetRun.names(joined, Optional.empty()));
        assertEquals(List.of("a#0", "gpu2", "a#2", "d"), FleetRun.names(joined, Optional.of(List.of("x", "gpu2", "y", "z"))));
        assertEquals("a", FleetDocument.nodeName("a#2"));
        assertEquals("node#x", FleetDocument.nodeName("node#x"));
        assertEquals("slow with a, b", FleetDocument.oneLine("slow with\n a,   b "));
    }
}
