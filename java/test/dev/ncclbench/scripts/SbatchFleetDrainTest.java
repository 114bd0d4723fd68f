package dev.ncclbench.scripts;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/launch/sbatch-fleet.sh drains with scontrol what fleet names: only on fleet's exit 0 or 6, only from the list
 * this run wrote (its run id on the first line), and only the job's own nodes, each a plain name. Run for real with
 * stub srun (it writes the drain list fleet would, or an old one, and exits as told), scontrol (the job's node list,
 * and every update it is asked for, logged) and logger first on PATH.
 */
class SbatchFleetDrainTest {
    private static final String NODELIST = "gpu[016-018]";

    @TempDir
    Path dir;

    private Stubs stubs;
    private Path out;
    private Path names;

    @BeforeEach
    void stubs() throws Exception {
        out = Files.createDirectories(dir.resolve("out"));
        names = dir.resolve("names");
        // fleet as srun runs it: writes --drain FILE headed with --run-id ID (own), another run's id (other), or nothing
        stubs = new Stubs(dir)
                .stub("srun", """
                        drain=""; id=""; prev=""
                        for a in "$@"; do
                          [[ "$prev" == --drain ]] && drain="$a"; [[ "$prev" == --run-id ]] && id="$a"; prev="$a"
                        done
                        case "$STUB_FLEET" in
                          own) { echo "# ncclbench fleet run $id"; cat "$STUB_NAMES"; } >"$drain" ;;
                          other) { echo "# ncclbench fleet run 4243-0123456789abcdef"; cat "$STUB_NAMES"; } >"$drain" ;;
                        esac
                        exit "$STUB_RC\"""")
                .stub("scontrol", "if [[ \"$1 $2\" == 'show hostnames' ]]; then printf '%s\\n' gpu016 gpu017 gpu018; fi; exit 0")
                .stub("logger", "exit 0");
        Files.writeString(dir.resolve("ncclbench.jar"), "not a jar\n");
    }

    private Stubs.Run sbatch(String fleet, int rc, String... listed) throws Exception {
        Files.writeString(names, listed.length == 0 ? "" : String.join("\n", listed) + "\n");
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_JOB_ID", "4242");
        env.put("SLURM_JOB_NODELIST", NODELIST);
        env.put("SLURM_SUBMIT_DIR", dir.toString());
        env.put("NCCLBENCH_JAR", dir.resolve("ncclbench.jar").toString());
        env.put("NCCLBENCH_OUT", out.toString());
        env.put("STUB_FLEET", fleet);
        env.put("STUB_RC", String.valueOf(rc));
        env.put("STUB_NAMES", names.toString());
        return stubs.run(dir, env, "bash", Stubs.LAUNCH.resolve("sbatch-fleet.sh").toString(), "--sizes", "64M");
    }

    /** The nodes scontrol was asked to drain, in order. */
    private List<String> drained() throws Exception {
        return stubs.calls("scontrol").stream().filter(l -> l.startsWith("scontrol [update]"))
                .map(l -> l.replaceAll("^scontrol \\[update] \\[nodename=([^]]*)].*$", "$1")).toList();
    }

    @Test
    void anOldDrainListIsNeverDrainedWhenFleetFailsEarly() throws Exception {
        Files.writeString(out.resolve("drain.txt"), "gpu017\ngpu[100-163]\n"); // last week's, at a fixed NCCLBENCH_OUT
        Stubs.Run r = sbatch("none", 2);
        assertEquals(2, r.code(), r.output());
        assertEquals(List.of(), drained(), r.output());
        assertFalse(Files.exists(out.resolve("drain.txt")), "removed before fleet ran: " + r.output());
        assertTrue(r.output().contains("ncclbench fleet: fleet exited 2: nothing drained"), r.output());
    }

    @Test
    void aFailedFleetDrainsNothingEvenFromItsOwnList() throws Exception {
        Stubs.Run r = sbatch("own", 4, "gpu017");
        assertEquals(4, r.code(), r.output());
        assertEquals(List.of(), drained(), r.output());
    }

    @Test
    void aListThatIsNotThisRunsIsRefused() throws Exception {
        Stubs.Run r = sbatch("other", 6, "gpu017");
        assertEquals(1, r.code(), r.output());
        assertEquals(List.of(), drained(), r.output());
        assertTrue(r.output().contains("is not this run's drain list (its first line is not '# ncclbench fleet run 4242-"),
                r.output());
        assertEquals(1, stubs.calls("logger").size(), stubs.calls().toString());
    }

    @Test
    void onlyTheJobsOwnNodesAreDrainedAndEveryOtherLineIsRefusedInOneLine() throws Exception {
        Stubs.Run r = sbatch("own", 6, "gpu017", "gpu[100-163]", "gpu099", "gpu016,gpu018", " gpu016", "gpu016 gpu018",
                "gpu018");
        assertEquals(1, r.code(), "a refused line is a failure to see: " + r.output());
        assertEquals(List.of("gpu017", "gpu018"), drained(), r.output());
        for (String line : List.of("gpu[100-163]", "gpu016,gpu018", " gpu016", "gpu016 gpu018")) {
            assertTrue(r.output().contains("ncclbench fleet: refused drain list line '" + line + "': not one node's name"),
                    line + ": " + r.output());
        }
        assertTrue(r.output().contains("ncclbench fleet: refused drain list line 'gpu099': not a node of job 4242 ("
                + NODELIST + "): not drained"), r.output());
        List<String> logged = stubs.calls("logger");
        assertEquals(5, logged.size(), logged.toString());
        assertTrue(logged.stream().allMatch(l -> l.startsWith("logger [-t] [ncclbench-fleet] [-p] [user.warning] [--] [job 4242:"
                + " refused drain list line '")), logged.toString());
        assertTrue(stubs.calls("scontrol").stream().anyMatch(l -> l.startsWith("scontrol [update] [nodename=gpu017]"
                + " [state=drain] [reason=ncclbench fleet: gpu017 ")), stubs.calls().toString());
    }

    @Test
    void aGoodFleetDrainsItsOwnNodes() throws Exception {
        Stubs.Run r = sbatch("own", 0, "gpu016");
        assertEquals(0, r.code(), r.output());
        assertEquals(List.of("gpu016"), drained(), r.output());
        assertTrue(r.output().contains("ncclbench fleet: drained gpu016: ncclbench fleet: gpu016 "), r.output());
    }
}
