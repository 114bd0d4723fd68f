package dev.ncclbench.doctor;

import dev.ncclbench.labs.LabScript;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The lab end to end (scripts/lab/nic-misselection.sh): with NCCL_SOCKET_IFNAME unset the socket backend's busbw
 * sits at eth0's shaped 500 Mbit/s, doctor names eth0 and recommends rdma0, and with rdma0 busbw is at least 5x
 * higher. The script itself asserts the numbers (exit 1 when the story does not hold). Root only.
 */
@Tag("lab")
class NicMisselectionLabTest {

    @Test
    void theSeedStoryHoldsOnOneMachine(@TempDir Path dir) throws Exception {
        Netns.assumeAvailable();
        assumeTrue(Netns.run(List.of("tc", "-V")).ok(), "tc (iproute2) is not installed");
        assumeTrue(Netns.run(List.of("python3", "-V")).ok(), "python3 is not installed");
        LabScript.Result r = LabScript.run(dir, "nic-misselection.sh", "doctor-labt-" + ProcessHandle.current().pid() % 100000 + "-");
        String out = r.output();
        int code = r.code();
        assertEquals(0, code, out);
        List<String> story = out.lines().filter(l -> l.matches("^[1-5]\\. .*")).toList();
        assertEquals(5, story.size(), out);
        assertTrue(story.get(0).contains("NCCL_SOCKET_IFNAME unset"), out);
        assertTrue(story.get(1).contains("bootstrap on eth0") && story.get(1).contains("recommends NCCL_SOCKET_IFNAME=rdma0"), out);
        assertTrue(story.get(2).contains("bootstrap on eth0") && story.get(2).contains("recommends NCCL_SOCKET_IFNAME=rdma0"), out);
        assertTrue(story.get(4).contains("x faster") && !story.get(4).contains("BELOW"), out);
    }
}
