package dev.ncclbench.gate;

import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.baseline.Quantiles;
import dev.ncclbench.baseline.RunSamples;
import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.choices.ChoiceDiff;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.results.ResultDocument;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares a run with a baseline, per collective and size. A line regresses when the change is real (the
 * Mann-Whitney U test says the run's samples are slower, and the bootstrap interval of the median ratio lies
 * beyond the noise band) and larger than the tolerance. A path verdict worse than the baseline's is a degraded
 * path. Both fail the gate (exit 6).
 */
public final class Gate {
    /**
     * Latency-bound sizes move with the host's load as a whole run: on a shared 2-core VM one run's small-size
     * latency can be 3x another's while each run's iterations agree within 10%. One run cannot show that, so
     * latency is judged only against baselines of two or more runs (or -N cycles).
     */
    public static final int MIN_RUNS_FOR_LATENCY = 2;
    private final GateOptions options;
    private final GateRules rules;

    public Gate(GateOptions options) {
        this(options, GateRules.DEFAULT);
    }

    public Gate(GateOptions options, GateRules rules) {
        this.options = options;
        this.rules = rules;
    }

    /**
     * @param runSamples   the run's samples per line ({@link RunSamples#of})
     * @param fp           the run's fingerprint ({@link Fingerprint#of})
     * @param baseline     null when there is none to compare with
     * @param baselineFile where the baseline came from (for the report)
     * @param curve        the curve check's findings for this run
     * @param none         where the gate looked for a baseline and found none; null with a baseline, or when the
     *                     curve check alone was asked for
     */
    public GateReport judge(String runFile, ResultDocument run, Map<SizeKey, SizeSamples> runSamples, Fingerprint fp,
                            Baseline baseline, String baselineFile, List<Finding> curve, NoBaseline none) {
        List<SizeResult> sizes = new ArrayList<>();
        List<Fingerprint.Change> changes = List.of();
        if (baseline != null) {
            changes = baseline.fingerprint().changesTo(fp);
            Map<SizeKey, SizeSamples> base = new LinkedHashMap<>();
            for (Baseline.Entry e : baseline.entries()) {
                for (SizeKey k : e.keys()) {
                    base.put(k, e.samples(k));
                }
            }
            for (SizeSamples r : runSamples.values()) {
                SizeSamples b = base.get(r.key());
                sizes.add(b == null ? absent(r, SizeResult.Status.NEW, fp.ranks()) : compare(b, r, fp.ranks()));
            }
            for (SizeSamples b : base.values()) {
                if (!runSamples.containsKey(b.key())) {
                    sizes.add(absent(b, SizeResult.Status.MISSING, fp.ranks()));
                }
            }
        } else {
            runSamples.values().forEach(r -> sizes.add(absent(r, SizeResult.Status.UNCOMPARED, fp.ranks())));
        }
        sizes.sort((a, b) -> SizeKey.ORDER.compare(a.key(), b.key()));
        return new GateReport(runFile, baseline == null ? null : baseline.name(), baselineFile,
                baseline == null ? 0 : baseline.runs().size(),
                baseline != null && baseline.fingerprint().id().equals(fp.id()), fp, changes, sizes,
                List.copyOf(curve), options.describe(), Instant.now().getEpochSecond(), rules.requireAllSizes(),
                "ok".equals(run.status()) ? null : run.status(),
                baseline == null ? null : ChoiceDiff.compare(baseline.ncclChoices(),
                        run.ncclChoices(), "the baseline", "this run"), none);
    }

    /** One line's verdict: also what fleet --baseline judges each pair with (the same tests and thresholds). */
    public SizeResult compare(SizeSamples base, SizeSamples run) {
        return compare(base, run, 0);
    }

    /**
     * @param ranks the run's ranks: in place on one rank moves no data, so that line is host time and judged as
     *              latency whatever its size (0 when unknown)
     */
    SizeResult compare(SizeSamples base, SizeSamples run, int ranks) {
        SizeKey k = run.key();
        boolean tables = base.tableOnly() || run.tableOnly();
        boolean latency = options.latencyJudged(k.size()) || hostOnly(k, ranks);
        double tol = options.toleranceAt(k.size());
        // a line without samples on one side is judged table time against table time, never samples against a mean
        Statistics c = tables ? SampleComparison.ofTables(base.asTable(), run.asTable())
                : SampleComparison.compare(base, run, k.hashCode() * 31L + k.size());
        double bv = latency ? c.baselineMedianUs() : base.busbwAt(c.baselineMedianUs());
        double rv = latency ? c.runMedianUs() : run.busbwAt(c.runMedianUs());
        if (!latency && !(bv > 0 && rv > 0)) {
            // busbw unknown (one rank, or a file without it): the time ratio still decides
            bv = c.baselineMedianUs();
            rv = c.runMedianUs();
            latency = true;
        }
        double change = latency ? c.ratio() - 1 : 1 / c.ratio() - 1;
        // the judged metric's own worsening, so that "busbw down 5%" and "latency up 5%" both mean 5%
        double worse = latency ? c.ratio() - 1 : 1 - 1 / c.ratio();
        double better = latency ? 1 - c.ratio() : 1 / c.ratio() - 1;
        SizeResult.Status status;
        if (RouteRank.worse(base.path(), run.path())) {
            status = SizeResult.Status.DEGRADED_PATH;
        } else if (hostOnly(k, ranks)) {
            status = SizeResult.Status.HOST_ONLY;
        } else if (latency && base.groups().size() < MIN_RUNS_FOR_LATENCY) {
            status = SizeResult.Status.UNJUDGED;
        } else if (c.reallySlower(options.alpha()) && worse > tol) {
            status = SizeResult.Status.REGRESSION;
        } else if (worse > tol) {
            // worse beyond the tolerance, yet inside the noise band or not shown by the rank test: not "ok"
            status = SizeResult.Status.TOO_NOISY;
        } else if (c.reallyFaster(options.alpha()) && better > tol) {
            status = SizeResult.Status.IMPROVED;
        } else {
            status = SizeResult.Status.OK;
        }
        return new SizeResult(k, status, latency, tol, c, bv, rv, change, base.path(), run.path(),
                statistic(tables, hostOnly(k, ranks)), base.tableTimeUs(), run.tableTimeUs());
    }

    /** What a line was judged on, in the words the outputs print beside the table's time. */
    static String statistic(boolean tables, boolean hostOnly) {
        String s = tables ? SizeResult.TABLE_TIME : SizeResult.SAMPLE_MEDIAN;
        return hostOnly ? s + "; " + SizeResult.HOST_ONLY : s;
    }

    private static boolean hostOnly(SizeKey k, int ranks) {
        return k.inPlace() && ranks == 1;
    }

    private SizeResult absent(SizeSamples s, SizeResult.Status status, int ranks) {
        double median = Quantiles.median(s.pooled());
        // busbw unknown (one rank moves nothing between GPUs): the time is the figure, as in compare
        boolean latency = options.latencyJudged(s.key().size()) || hostOnly(s.key(), ranks)
                || !(s.busbwAt(median) > 0);
        double v = latency ? median : s.busbwAt(median);
        boolean inRun = status != SizeResult.Status.MISSING;
        return new SizeResult(s.key(), status, latency, options.toleranceAt(s.key().size()), null,
                inRun ? Double.NaN : v, inRun ? v : Double.NaN, Double.NaN, inRun ? "" : s.path(),
                inRun ? s.path() : "", statistic(s.tableOnly(), hostOnly(s.key(), ranks)),
                inRun ? Double.NaN : s.tableTimeUs(), inRun ? s.tableTimeUs() : Double.NaN);
    }
}
