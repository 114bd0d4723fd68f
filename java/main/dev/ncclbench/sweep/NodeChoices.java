package dev.ncclbench.sweep;

import dev.ncclbench.backend.RankComm;
import dev.ncclbench.choices.ChoicesMerge;
import dev.ncclbench.choices.ChoicesReader;
import dev.ncclbench.choices.NcclChoices;
import dev.ncclbench.diagnosis.RunLogDiagnosis;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.output.Json;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.rendezvous.Gathers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every node's NCCL choices in rank 0's result, not only rank 0's node's: each process writes its NCCL log into the run
 * folder on its own node's disk, so after the sweep each node's first process sends what its node's logs say (a few KB)
 * and rank 0 merges them with its own. On a disk every node shares, rank 0 already reads every node's logs and the
 * messages add nothing.
 */
final class NodeChoices {
    /** One node's choices and the host they are from. */
    record Message(String host, NcclChoices choices) {
    }

    private NodeChoices() {
    }

    /**
     * Collective over every process of the job: rank 0's gets every other node's message, the others an empty list.
     * Rank 0's node sends none: rank 0 reads its node's logs for the result anyway, and {@link #combine} would drop its
     * message (its host is in those logs), so reading them here too would parse the same files twice.
     */
    static List<Message> gather(List<ControlPlane> planes, LaunchInfo launch, List<RankComm> comms, Path runFolder) {
        byte[] mine = launch.localRank() == 0 && launch.rank() != 0 ? own(comms, runFolder) : new byte[0];
        byte[][] all = Gathers.toRankZero(planes, "nccl-choices", local -> local == 0 ? mine : new byte[0]);
        List<Message> out = new ArrayList<>();
        if (all == null) {
            return out;
        }
        for (byte[] b : all) {
            if (b != null && b.length > 0) {
                try {
                    out.add(Json.mapper().readValue(b, Message.class));
                } catch (IOException e) {
                    // one node's unreadable choices leave that node out; the run itself is unharmed
                }
            }
        }
        return out;
    }

    /** What this node's NCCL logs say: the nccl.HOST.PID.log files of this host in the run folder, empty when none. */
    private static byte[] own(List<RankComm> comms, Path runFolder) {
        String host = HostName.kernel();
        List<Path> own = new ArrayList<>();
        comms.forEach(c -> own.addAll(c.logFiles()));
        List<Path> logs = RunLogDiagnosis.logsOf(own, runFolder).stream().filter(p -> own.contains(p)
                || p.getFileName().toString().startsWith("nccl." + host + ".")).toList();
        try {
            NcclLogEvidence e = NcclLogReader.readAll(logs);
            return e.counts().ncclLines() == 0 ? new byte[0]
                    : Json.mapper().writeValueAsBytes(new Message(host, ChoicesReader.ofNode(e)));
        } catch (IOException | RuntimeException e) {
            return new byte[0]; // no readable log on this node: rank 0 keeps what it has
        }
    }

    /**
     * Rank 0's choices: its own logs' when they already name every node that sent (a shared disk), else its node's and
     * every other node's merged. Null without any NCCL line (a fact not logged stays unknown).
     */
    static NcclChoices combine(Optional<NcclLogEvidence> mine, List<Message> nodes) {
        Optional<NcclLogEvidence> logged = mine.filter(e -> e.counts().ncclLines() > 0);
        List<String> seen = logged.map(NcclLogEvidence::hosts).orElse(List.of());
        List<NcclChoices> others = nodes.stream().filter(m -> !seen.contains(m.host())).map(Message::choices).toList();
        if (others.isEmpty()) {
            return logged.map(ChoicesReader::of).orElse(null);
        }
        List<NcclChoices> all = new ArrayList<>();
        logged.ifPresent(e -> all.add(ChoicesReader.ofNode(e)));
        all.addAll(others);
        return ChoicesMerge.of(all);
    }
}
