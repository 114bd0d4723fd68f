package dev.ncclbench.launch;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Slurm's host-list syntax, as `scontrol show hostnames` expands it. */
class SlurmHostListTest {

    @Test
    void rangesListsPaddingSuffixesAndSeveralGroups() {
        assertEquals(List.of("node0", "node1", "node2", "node3", "node7"), SlurmHostList.expand("node[0-3,7]", "L"));
        assertEquals(List.of("a01b", "a02b", "a03b", "a04b"), SlurmHostList.expand("a[01-04]b", "L"));
        assertEquals(List.of("r1-n01", "r1-n02", "r2-n01", "r2-n02"), SlurmHostList.expand("r[1-2]-n[01-02]", "L"));
        assertEquals(List.of("login", "gpu008", "gpu009", "gpu010", "x5", "db"),
                SlurmHostList.expand("login,gpu[008-010],x[5],db", "L"));
        assertEquals(List.of("n9", "n10"), SlurmHostList.expand("n[9-10]", "L"));
        assertEquals("gpu008", SlurmHostList.first("gpu[008-010,3],login", "L"));
        assertEquals("login", SlurmHostList.first("login,gpu[1-2]", "L"));
        assertEquals("a1b3", SlurmHostList.first("a[1-2]b[3,5]", "L"));
    }

    @Test
    void nonsenseIsAUsageErrorNamingTheVariable() {
        for (String bad : List.of("", "node[0-3", "node0-3]", "node[3-1]", "node[a-b]", "node[]", "a,,b", "[[1]]",
                "node[0-99999999]", "node 1")) {
            NcclbenchException e = assertThrows(NcclbenchException.class, () -> SlurmHostList.expand(bad, "SLURM_JOB_NODELIST"),
                    bad);
            assertEquals(ExitCode.USAGE, e.exitCode(), bad);
            assertEquals(true, e.getMessage().startsWith("SLURM_JOB_NODELIST=" + bad.trim() + " is not a Slurm host list: ")
                    || e.getMessage().startsWith("SLURM_JOB_NODELIST="), e.getMessage());
        }
        assertEquals("SLURM_JOB_NODELIST=node[3-1] is not a Slurm host list: the range 3-1 runs backwards",
                assertThrows(NcclbenchException.class, () -> SlurmHostList.first("node[3-1]", "SLURM_JOB_NODELIST")).getMessage());
    }
}
