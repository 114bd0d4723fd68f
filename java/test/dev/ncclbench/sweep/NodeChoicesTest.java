package dev.ncclbench.sweep;

import dev.ncclbench.Goldens;
import dev.ncclbench.choices.ChoiceDiff;
import dev.ncclbench.choices.ChoicesReader;
import dev.ncclbench.choices.Comparison;
import dev.ncclbench.choices.NcclChoices;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A multi-node sweep whose nodes keep their NCCL logs on their own disks: rank 0 reads its node's, the other nodes send
 * theirs, and the result's choices are every node's. Four nodes of 2.28.9, node7 without GPUDirect RDMA in the second
 * run: seen only when node7's own choices reach rank 0.
 */
class NodeChoicesTest {
    private static final Path LOGS = Goldens.resources().resolve("choices");

    /** The run as its nodes saw it: node4 is rank 0's (its evidence), the others each send their own message. */
    private static NcclChoices run(String log) throws IOException {
        List<String> lines = Files.readAllLines(LOGS.resolve(log));
        NcclLogEvidence rankZero = null;
        List<NodeChoices.Message> others = new ArrayList<>();
        for (String host : List.of("node4", "node5", "node6", "node7")) {
            String own = String.join("\n", lines.stream().filter(l -> l.startsWith(host + ":")).toList());
            NcclLogEvidence e = NcclLogReader.readString(own, "nccl." + host + ".log");
            if (rankZero == null) {
                rankZero = e;
            } else {
                // as it travels: JSON bytes through the store
                NodeChoices.Message m = new NodeChoices.Message(host, ChoicesReader.ofNode(e));
                NodeChoices.Message read = dev.ncclbench.output.Json.mapper().readValue(
                        dev.ncclbench.output.Json.mapper().writeValueAsBytes(m), NodeChoices.Message.class);
                assertEquals(m, read);
                others.add(read);
            }
        }
        return NodeChoices.combine(Optional.of(rankZero), others);
    }

    @Test
    void everyNodesChoicesReachTheResult() throws IOException {
        NcclChoices all = run("gdr-off-node7-2.28.log");
        assertEquals("NET/IB/GDRDMA", all.hostRoute(), all.toString());
        assertEquals(java.util.Map.of("node7", "NET/IB"), all.hostsOther());
        assertEquals(4, all.nodes());
        // rank 0's node alone says nothing of node7
        NcclLogEvidence node4 = NcclLogReader.readString(String.join("\n", Files.readAllLines(LOGS.resolve(
                "gdr-off-node7-2.28.log")).stream().filter(l -> l.startsWith("node4:")).toList()), "n4");
        assertTrue(ChoicesReader.of(node4).hostsOther().isEmpty());
    }

    @Test
    void theGateSeesTheNodeThatChangedThoughRankZerosDidNot() throws IOException {
        Comparison c = ChoiceDiff.compare(run("gdr-4nodes-2.28.log"), run("gdr-off-node7-2.28.log"));
        assertTrue(c.changes().stream().anyMatch(ch -> ch.fact().equals("gdr") && ch.where() != null
                && ch.where().contains("node7")), c.changes().toString());
    }

    @Test
    void aSharedDiskAddsNothing() throws IOException {
        // rank 0 read every node's log already: the messages of hosts it saw are not merged a second time
        NcclLogEvidence all = NcclLogReader.readAll(List.of(LOGS.resolve("gdr-off-node7-2.28.log")));
        NcclChoices alone = ChoicesReader.of(all);
        NcclChoices combined = NodeChoices.combine(Optional.of(all), List.of(new NodeChoices.Message("node7",
                ChoicesReader.ofNode(all))));
        assertEquals(alone, combined);
    }
}
