package dev.ncclbench.launch;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rank, size and local rank from each launcher's variables; flags win; nonsense is exit 2. */
class LaunchDetectorTest {

    @Test
    void noLauncherIsOneProcess() {
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of()), null, null);
        assertEquals(new LaunchInfo(0, 1, 0, 1, null, 0, null, "none"), li);
        assertTrue(li.singleNode());
        assertEquals(LaunchInfo.single(), li);
    }

    @Test
    void torchrun() {
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("RANK", "3", "WORLD_SIZE", "8", "LOCAL_RANK", "3",
                "LOCAL_WORLD_SIZE", "4", "MASTER_ADDR", " node0 ", "MASTER_PORT", "29500",
                "TORCHELASTIC_RUN_ID", "run-42")), null, null);
        assertEquals(new LaunchInfo(3, 8, 3, 4, "node0", 29500, "run-42", "torchrun"), li);
        assertFalse(li.singleNode());
        LaunchInfo oneNode = LaunchDetector.detect(Host.of(Map.of("RANK", "1", "WORLD_SIZE", "2", "LOCAL_RANK", "1",
                "LOCAL_WORLD_SIZE", "2", "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "1234")), null, null);
        assertTrue(oneNode.singleNode());
        assertEquals("127.0.0.1", oneNode.jobId(), "without a run id the master address identifies the job");
    }

    @Test
    void openMpi() {
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_RANK", "2", "OMPI_COMM_WORLD_LOCAL_SIZE", "4", "PMIX_NAMESPACE", "prterun-x-123@1")),
                null, null);
        assertEquals(new LaunchInfo(2, 4, 2, 4, null, 0, "prterun-x-123@1", "openmpi"), li);
        assertTrue(li.singleNode());
        LaunchInfo ess = LaunchDetector.detect(Host.of(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2",
                "OMPI_MCA_ess_base_jobid", "12345", "PMIX_NAMESPACE", "ns")), null, null);
        assertEquals("12345", ess.jobId());
        assertEquals(-1, ess.localSize());
        assertFalse(ess.singleNode(), "no local size: cannot assume one node");
    }

    @Test
    void slurm() {
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "16", "SLURM_LOCALID", "1",
                "SLURM_NNODES", "4", "SLURM_JOB_ID", "777", "SLURM_STEP_ID", "0")), null, null);
        assertEquals(new LaunchInfo(5, 16, 1, -1, null, 0, "777.0", "slurm"), li);
        assertFalse(li.singleNode());
        LaunchInfo one = LaunchDetector.detect(Host.of(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_LOCALID", "1",
                "SLURM_NNODES", "1", "SLURM_JOB_ID", "778", "SLURM_STEPID", "3")), null, null);
        assertEquals(new LaunchInfo(1, 2, 1, 2, null, 0, "778.3", "slurm"), one);
        assertTrue(one.singleNode());
    }

    @Test
    void srunGivesRankZerosHostFromTheNodeListAndTheTasksOnThisNode() {
        // what slurmstepd sets for task 5 of srun -N 3 --ntasks-per-node=2 on node[07-08,10] (lab: scripts/lab/slurm.sh)
        Map<String, String> env = new java.util.HashMap<>(Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "6",
                "SLURM_LOCALID", "1", "SLURM_NODEID", "2", "SLURM_NNODES", "3", "SLURM_JOB_ID", "41", "SLURM_STEP_ID", "2",
                "SLURM_STEP_NODELIST", "node[07-08,10]", "SLURM_JOB_NODELIST", "other[1-9]",
                "SLURM_STEP_TASKS_PER_NODE", "2(x3)"));
        LaunchInfo li = LaunchDetector.detect(Host.of(env), null, null);
        assertEquals(new LaunchInfo(5, 6, 1, 2, "node07", 0, "41.2", "slurm"), li);
        assertFalse(li.singleNode());

        env.remove("SLURM_STEP_NODELIST");
        env.put("SLURM_STEP_TASKS_PER_NODE", "3(x2),1");
        env.put("SLURM_NODEID", "2");
        LaunchInfo job = LaunchDetector.detect(Host.of(env), null, null);
        assertEquals("other1", job.masterAddr(), "without the step's list the job's first node");
        assertEquals(1, job.localSize(), "2(x2),1: the third node runs one task");

        env.put("MASTER_ADDR", "10.0.0.9");
        assertEquals("10.0.0.9", LaunchDetector.detect(Host.of(env), null, null).masterAddr(), "MASTER_ADDR wins");

        env.put("SLURM_NODEID", "3");
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> LaunchDetector.detect(Host.of(env), null, null));
        assertEquals("SLURM_STEP_TASKS_PER_NODE=3(x2),1 names 3 nodes but SLURM_NODEID=3 is outside them", e.getMessage());
        env.put("SLURM_NODEID", "0");
        env.put("SLURM_STEP_TASKS_PER_NODE", "2x3");
        assertEquals(ExitCode.USAGE, assertThrows(NcclbenchException.class, () -> LaunchDetector.detect(Host.of(env), null, null))
                .exitCode());
    }

    @Test
    void slurmsBatchScriptIsOneProcess() {
        // sbatch gives its script SLURM_PROCID=0 and the job's SLURM_NTASKS but no step: not a task of srun
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "8", "SLURM_LOCALID", "0",
                "SLURM_JOB_ID", "42", "SLURM_JOB_NODELIST", "node[0-1]")), null, null);
        assertEquals("none", li.launcher());
        assertEquals(1, li.size());
    }

    @Test
    void pmi() {
        LaunchInfo hydra = LaunchDetector.detect(Host.of(Map.of("PMI_RANK", "1", "PMI_SIZE", "4", "MPI_LOCALRANKID", "1",
                "MPI_LOCALNRANKS", "2", "PMI_ID", "kvs_1")), null, null);
        assertEquals(new LaunchInfo(1, 4, 1, 2, null, 0, "kvs_1", "pmi"), hydra);
        LaunchInfo generic = LaunchDetector.detect(Host.of(Map.of("PMI_RANK", "3", "PMI_SIZE", "4", "PMI_LOCAL_RANK", "1",
                "PMI_LOCAL_SIZE", "4", "PMI_KVSNAME", "kvs_2")), null, null);
        assertEquals(new LaunchInfo(3, 4, 1, 4, null, 0, "kvs_2", "pmi"), generic);
    }

    @Test
    void torchrunWinsOverALauncherUnderneath() {
        // torchrun started by srun: torchrun's variables describe the worker, Slurm's the torchrun process
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("RANK", "6", "WORLD_SIZE", "8", "LOCAL_RANK", "2",
                "SLURM_PROCID", "1", "SLURM_NTASKS", "2")), null, null);
        assertEquals("torchrun", li.launcher());
        assertEquals(6, li.rank());
    }

    @Test
    void aLauncherNeedsBothRankAndSize() {
        // half of torchrun's pair is a mistake, not "no launcher"
        assertTrue(usage(Map.of("RANK", "1"), null, null).getMessage().contains("WORLD_SIZE is not"));
        assertEquals("none", LaunchDetector.detect(Host.of(Map.of("SLURM_PROCID", "1")), null, null).launcher());
    }

    @Test
    void flagsOverrideTheEnvironment() {
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_RANK", "2", "MASTER_ADDR", "h", "MASTER_PORT", "99")), 1, 3);
        assertEquals(1, li.rank());
        assertEquals(3, li.size());
        assertEquals(2, li.localRank(), "the launcher still knows the local rank");
        assertEquals("flags", li.launcher());
        assertEquals("h", li.masterAddr());
        assertEquals(99, li.masterPort());
        LaunchInfo bare = LaunchDetector.detect(Host.of(Map.of()), 2, 3);
        assertEquals(new LaunchInfo(2, 3, 2, -1, null, 0, null, "flags"), bare);
    }

    private static NcclbenchException usage(Map<String, String> env, Integer rank, Integer size) {
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> LaunchDetector.detect(Host.of(env), rank, size));
        assertEquals(ExitCode.USAGE, e.exitCode());
        return e;
    }

    @Test
    void badValuesAreUsageErrorsNamingTheVariable() {
        assertTrue(usage(Map.of("RANK", "one", "WORLD_SIZE", "2"), null, null).getMessage().contains("RANK=one"));
        assertTrue(usage(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "x"), null, null).getMessage().contains("SLURM_NTASKS=x"));
        assertTrue(usage(Map.of("MASTER_PORT", "http"), null, null).getMessage().contains("MASTER_PORT=http"));
        assertTrue(usage(Map.of("OMPI_COMM_WORLD_RANK", "4", "OMPI_COMM_WORLD_SIZE", "4"), null, null).getMessage()
                .contains("rank 4"));
        assertTrue(usage(Map.of("RANK", "-1", "WORLD_SIZE", "4"), null, null).getMessage().contains("-1"));
        assertTrue(usage(Map.of("PMI_RANK", "0", "PMI_SIZE", "0"), null, null).getMessage().contains("PMI_SIZE=0"));
        assertTrue(usage(Map.of(), 5, 2).getMessage().contains("rank 5"));
        assertTrue(usage(Map.of(), 0, 0).getMessage().contains("--world-size must be 1 or more, got 0"));
        assertTrue(usage(Map.of(), 1, null).getMessage().contains("--world-size"));
        assertTrue(usage(Map.of(), null, 2).getMessage().contains("--rank"));
    }

    @Test
    void blankValuesMeanUnset() {
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("RANK", "0", "WORLD_SIZE", "2", "LOCAL_RANK", " ", "MASTER_ADDR", "")),
                null, null);
        assertEquals(0, li.localRank());
        assertNull(li.masterAddr());
    }

    /** A launcher variable that is set must make sense: exit 2 naming it, never ignored or an exception. */
    @Test
    void badLauncherVariablesAreRefusedNamingTheVariable() {
        java.util.List<Map<String, String>> bad = java.util.List.of(
                Map.of("RANK", "0", "WORLD_SIZE", "2", "MASTER_PORT", "70000"),
                Map.of("MASTER_PORT", "70000"),
                Map.of("RANK", "0", "WORLD_SIZE", "0"),
                Map.of("WORLD_SIZE", "0"),
                Map.of("RANK", "-1"),
                Map.of("RANK", "-1", "WORLD_SIZE", "4"),
                Map.of("RANK", "4", "WORLD_SIZE", "4"),
                Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "-2"),
                Map.of("SLURM_PROCID", "x", "SLURM_NTASKS", "2"));
        java.util.List<String> names = java.util.List.of("MASTER_PORT", "MASTER_PORT", "WORLD_SIZE", "WORLD_SIZE", "RANK",
                "RANK", "rank 4", "OMPI_COMM_WORLD_SIZE", "SLURM_PROCID");
        for (int i = 0; i < bad.size(); i++) {
            Map<String, String> env = bad.get(i);
            NcclbenchException e = assertThrows(NcclbenchException.class, () -> LaunchDetector.detect(Host.of(env), null, null),
                    env.toString());
            assertEquals(ExitCode.USAGE, e.exitCode(), env + ": " + e.getMessage());
            assertTrue(e.getMessage().contains(names.get(i)), env + " names " + names.get(i) + ": " + e.getMessage());
        }
    }

    @Test
    void torchrunOnLoopbackIsOneNode() {
        LaunchInfo li = LaunchDetector.detect(Host.of(Map.of("RANK", "1", "WORLD_SIZE", "3", "MASTER_ADDR", "127.0.0.1",
                "MASTER_PORT", "29500")), null, null);
        assertTrue(li.singleNode(), "a loopback rendezvous is reachable from this host only");
    }
}
