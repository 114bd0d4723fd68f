package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.List;

/**
 * The bootstrap rendezvous failed without a "failed" in sight: the root's "rank N of M ranks has already checked in",
 * "mismatch in info from procs", a truncated bootstrap message, an invalid NCCL_COMM_ID. The root stops, the ranks
 * that checked in wait for it, and the job never gets its communicator: never healthy.
 */
public final class BootstrapRendezvous extends FailureFamilyRule {
    public BootstrapRendezvous() {
        super("BOOTSTRAP-RENDEZVOUS",
                "the bootstrap rendezvous failed (a rank checked in twice, the processes disagree on the job size,"
                        + " a bad NCCL_COMM_ID): the job never gets its communicator");
    }

    @Override
    FailureKind kind() {
        return FailureKind.RENDEZVOUS;
    }

    @Override
    String title() {
        return "NCCL's bootstrap rendezvous failed: some ranks never get their communicator";
    }

    @Override
    String detail(List<Warning> lines) {
        String m = lines.get(0).message();
        if (m.contains("already checked in")) {
            return "The bootstrap root (in rank 0's process) heard from the same rank twice: two processes claim one"
                    + " rank (RANK/LOCAL_RANK wrong, a launcher starting every rank as 0, a restarted rank rejoining),"
                    + " or two jobs share one root address (the same NCCL_COMM_ID, MASTER_ADDR:MASTER_PORT or unique"
                    + " id). The root gives up and the other ranks wait until they time out.";
        }
        if (m.contains("mismatch")) {
            return "The processes that reached the root disagree on the job size (nranks) or on their root: they were"
                    + " started with different WORLD_SIZE / -np, or belong to two jobs that share one root address.";
        }
        return "NCCL's bootstrap (the TCP rendezvous every communicator starts with) reported an error: the ranks do"
                + " not agree on who is in the job, or the root address is wrong. The GPUs and the network between"
                + " them are not at fault.";
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        List<String> r = new ArrayList<>();
        r.add("print RANK, WORLD_SIZE and LOCAL_RANK in every process: each rank exactly once, one size for all");
        r.add("one job per root: a fresh MASTER_PORT / NCCL_COMM_ID per job; kill leftovers of an earlier run"
                + " (pgrep -af <your script>)");
        f.env("NCCL_COMM_ID").ifPresent(s -> r.add("NCCL_COMM_ID=" + s.value() + " at " + s.source()
                + ": <ipv4>:<port>, [<ipv6>]:<port> or <host>:<port>, and not shared with another job"));
        r.add("every process on the same NCCL version (a mixed install truncates bootstrap messages)");
        return r;
    }

    @Override
    String reference() {
        return References.ENV_DOC + "#nccl-comm-id";
    }
}
