package dev.ncclbench.fleet;

import dev.ncclbench.spec.Sizes;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** What rank 0 prints while it searches and when it is done. */
final class FleetText {
    private final PrintWriter out;
    private final List<String> hosts;

    FleetText(PrintWriter out, List<String> hosts) {
        this.out = out;
        this.hosts = hosts;
    }

    void header(String backend, SearchOptions s, FleetSettings f, String floorSource, Map<Integer, String> missing,
                FleetBaseline baseline, DrainPolicy drain) {
        out.printf(Locale.ROOT, "# fleet: %d nodes, %s backend, survey %s%s, %s at %s, round limit %d s, watchdog %d s%n", hosts.size(),
                backend, s.survey().label, s.groupSize() > 2 ? ", then groups of " + s.groupSize() : "",
                String.join("+", f.collectives()), f.sizes().stream().map(FleetText::size).collect(Collectors.joining(",")),
                f.roundSeconds(), f.watchdogSeconds());
        out.println("# judgement: " + FleetDocument.judgement(floorSource, baseline));
        if (drain.headerLine() != null) {
            out.println("# " + drain.headerLine());
        }
        missing.forEach((r, why) -> out.println("# " + hosts.get(r) + " (rank " + r + ") " + why));
        out.flush();
    }

    /** A line as each round starts, so that a watcher (the lab) can act mid-search. */
    void begin(RoundPlan p) {
        out.printf(Locale.ROOT, "# round %d begins: %d group%s%n", p.round(), p.groups().size(), p.groups().size() == 1 ? "" : "s");
        out.flush();
    }

    void round(Search.RoundReport r) {
        long slow = r.results().stream().filter(m -> r.evidence().usable(m) && r.evidence().slow(m)).count();
        long failed = r.results().stream().filter(m -> !r.evidence().usable(m)).count();
        int load = r.results().stream().mapToInt(GroupMeasurement::load).max().orElse(1);
        out.printf(Locale.ROOT, "round %d: %d group%s%s: %d fine, %d slow%s%n", r.plan().round(), r.results().size(),
                r.results().size() == 1 ? "" : "s", load > 1 ? " at once (up to " + load + " per node)" : "",
                r.results().size() - slow - failed, slow, failed > 0 ? ", " + failed + " lost with a node" : "");
        for (GroupMeasurement m : r.results()) {
            if (m.group().purpose() == Purpose.SURVEY && r.evidence().usable(m) && !r.evidence().slow(m)) {
                continue;
            }
            String who = m.group().members().stream().map(hosts::get).collect(Collectors.joining(" - "));
            String what = !r.evidence().usable(m) ? "not judged (" + m.error() + ")"
                    : m.failed() ? "failed: " + m.error()
                    : String.format(Locale.ROOT, "%.3g GB/s, %s of the best%s%s", m.busbw(),
                    Judge.pct(r.evidence().ratio(m)), againstBaseline(r.evidence().againstBaseline(m)),
                    r.evidence().slow(m) ? ": slow" : "");
            out.printf(Locale.ROOT, "  %-12s %s: %s%n", m.group().purpose().label, who, what);
        }
        r.lost().forEach((rank, why) -> out.println("  lost " + hosts.get(rank) + ": " + why));
        out.flush();
    }

    private static String againstBaseline(BaselineJudge.Verdict v) {
        return v == null ? "" : ", " + Judge.pct(v.ratio()) + " of its baseline (" + v.line() + ")";
    }

    /** A rail round's line: how many groups, and each slow or failed one. */
    void railRound(List<RailMeasurement> ms) {
        if (ms.isEmpty()) {
            return;
        }
        long failed = ms.stream().filter(m -> m.error() != null).count();
        out.printf(Locale.ROOT, "round %d (rails): %d rail pair%s at once, %d failed%n", ms.get(0).round(), ms.size(),
                ms.size() == 1 ? "" : "s", failed);
        for (RailMeasurement m : ms) {
            out.printf(Locale.ROOT, "  rail %-3d %s - %s: %s%n", m.rail(), hosts.get(m.a()), hosts.get(m.b()),
                    m.error() != null ? "failed: " + m.error() : RailJudge.rate(m.busbw()));
        }
        out.flush();
    }

    /** The rails' verdicts: every rail not ok, one line each; the count of the rest. */
    void rails(RailResult rails) {
        if (rails == null) {
            return;
        }
        out.printf("rails: %s%n", rails.judgement());
        long ok = 0;
        for (RailVerdict v : rails.verdicts()) {
            if (v.status() == RailVerdict.Status.OK) {
                ok++;
                continue;
            }
            out.printf(Locale.ROOT, "  %-20s %-11s %s%n", hosts.get(v.rank()), v.status().label, v.reason());
        }
        out.printf(Locale.ROOT, "  %d of %d rail%s ok%n", ok, rails.verdicts().size(), rails.verdicts().size() == 1 ? "" : "s");
    }

    void verdicts(SearchResult result, RailResult rails, DrainPolicy.Drain drain) {
        Verdicts v = result.verdicts();
        out.printf("%nnodes:%n");
        for (NodeVerdict n : v.nodes()) {
            out.printf(Locale.ROOT, "  %-20s %-11s %s%n", hosts.get(n.rank()), n.status().label, n.reason());
        }
        if (!v.badLinks().isEmpty()) {
            out.println("bad links:");
            for (LinkVerdict l : v.badLinks()) {
                out.printf(Locale.ROOT, "  %s - %s: %s%n", hosts.get(l.a()), hosts.get(l.b()), l.reason());
            }
        }
        int n = hosts.size();
        out.printf(Locale.ROOT, "links measured: %d of %d%n", v.linksMeasured(), n * (n - 1) / 2);
        if (!v.undecided().isEmpty()) {
            out.println("could not decide:");
            v.undecided().forEach(u -> out.println("  " + u));
        }
        BaselineJudge bj = result.evidence().baseline();
        if (bj != null) {
            out.printf(Locale.ROOT, "against baseline %s: %d pair result%s judged by the recorded rate, %d with no baseline"
                    + " for the pair (judged relative%s)%n", bj.baseline().name(), bj.judged, bj.judged == 1 ? "" : "s",
                    bj.without, result.evidence().options().floorGBps().isPresent() ? " and by --fabric" : " only");
        }
        rails(rails);
        out.printf(Locale.ROOT, "rounds: %d (%s)%s%n", result.rounds(), result.stopReason(),
                rails == null ? "" : ", then " + rails.plans().size() + " rail round" + (rails.plans().size() == 1 ? "" : "s"));
        drain.lines().forEach(out::println); // what the drain list holds, and what it does not and why
        out.flush();
    }

    /**
     * What rank 0 tells every node at the end, one line: what it decided ({@link FleetDocument#anyBad}, the exit code's
     * answer) and where its verdicts are. {@code json}: the JSON's path, or null when rank 0 could not write it.
     */
    static String decided(String rank0, FleetDocument doc, DrainPolicy.Drain drain, Path json) {
        Verdicts v = doc.verdicts();
        RailResult rails = doc.rails();
        int badRails = rails == null ? 0 : rails.bad().size();
        int rounds = doc.result().rounds() + (rails == null ? 0 : rails.plans().size());
        return "rank 0 (" + rank0 + ") decided after " + rounds + " round" + (rounds == 1 ? "" : "s") + ": "
                + (doc.anyBad() ? v.badNodes().size() + " bad node" + (v.badNodes().size() == 1 ? "" : "s") + ", "
                + v.badLinks().size() + " bad link" + (v.badLinks().size() == 1 ? "" : "s")
                + (rails == null ? "" : ", " + badRails + " bad rail" + (badRails == 1 ? "" : "s")) : "nothing bad found")
                + "; " + String.join("; ", drain.lines()) + "; "
                + (json == null ? "it could not write its files" : "its verdicts are in " + json + " on " + rank0);
    }

    void files(FleetOutputs.Paths p, DrainPolicy drain) {
        out.println("# wrote " + p.json() + ", " + p.html() + (drain.writes() ? ", " + p.drain() : "") + ", " + p.junit()
                + ", " + p.prometheus() + (drain.writes() ? "" : " (no drain list: not authenticated)"));
        out.flush();
    }

    static String size(long b) {
        return Sizes.flag(b);
    }
}
