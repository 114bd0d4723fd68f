package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.RankInfo;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Ranks that started init and never completed it while other ranks of the same communicator (its commId, else a
 * job of the same size) did. Init is collective
 * (a rank's transports wait for its peers, and a node's ranks leave init through one barrier together), so peers
 * that got through it and ranks that never did mean the job stopped in init: those ranks hung or died. A log cut
 * between two ranks' "Init COMPLETE" lines reads the same, so this is never certain, but the evidence does not show
 * a healthy job, and a job that hung in init must never read healthy. Where no rank completed, nothing says which
 * (an excerpt cut before the end of init is common), and results rows after the lines show every rank ran.
 */
public record InitStall(List<RankInfo> stalled, List<RankInfo> completed) {
    public InitStall {
        stalled = List.copyOf(stalled);
        completed = List.copyOf(completed);
    }

    static InitStall of(NcclLogEvidence e) {
        if (!e.measured().isEmpty()) {
            return new InitStall(List.of(), List.of());
        }
        Set<String> jobsCompleted = e.ranks().stream().filter(r -> r.initComplete() && r.nranks() > 1)
                .map(InitStall::job).collect(Collectors.toSet());
        // the same rank of the same communicator completed in another process or file (a restarted process, a log
        // read twice): that rank got through
        Set<String> ranksCompleted = e.ranks().stream().filter(RankInfo::initComplete)
                .map(r -> job(r) + '#' + r.rank()).collect(Collectors.toSet());
        Comparator<RankInfo> byRank = Comparator.comparingInt(RankInfo::rank);
        List<RankInfo> stalled = e.ranks().stream().filter(r -> !r.initComplete() && jobsCompleted.contains(job(r))
                && !ranksCompleted.contains(job(r) + '#' + r.rank())).sorted(byRank).toList();
        if (stalled.isEmpty()) {
            return new InitStall(List.of(), List.of());
        }
        Set<String> jobs = stalled.stream().map(InitStall::job).collect(Collectors.toSet());
        return new InitStall(stalled, e.ranks().stream().filter(r -> r.initComplete() && jobs.contains(job(r)))
                .sorted(byRank).toList());
    }

    /**
     * The communicator a rank's init belongs to: its commId where the line prints one (several jobs' logs read
     * together are told apart by it), else its size.
     */
    private static String job(RankInfo r) {
        return r.commId().isEmpty() ? "nranks " + r.nranks() : r.commId();
    }

    public boolean any() {
        return !stalled.isEmpty();
    }

    /** "ranks 2, 3 of 4 started init and never completed it, while ranks 0, 1 of the same job did". */
    public String sentence() {
        return ranks(stalled) + " of " + stalled.get(0).nranks() + " started init and never completed it, while "
                + ranks(completed) + " of the same job did";
    }

    private static String ranks(List<RankInfo> rs) {
        List<Integer> n = rs.stream().map(RankInfo::rank).distinct().toList();
        String list = n.stream().limit(8).map(String::valueOf).collect(Collectors.joining(", "))
                + (n.size() > 8 ? " and " + (n.size() - 8) + " more" : "");
        return (n.size() == 1 ? "rank " : "ranks ") + list;
    }
}
