package dev.ncclbench.fleet;

import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.gate.Gate;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.gate.SizeResult;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges a pair result against the rate its pair reached when the baseline was recorded, with the gate's own
 * test (Mann-Whitney U on the per-iteration times, bootstrap interval of the median ratio beyond the noise band,
 * and the gate's default 5% tolerance): a line the gate would call a regression makes the result slow. A pair the
 * baseline has no line for at this load is "no baseline for this pair": the relative rule (and --fabric) decide.
 */
final class BaselineJudge {
    /** The verdict on one result: slow or not, and against what. */
    record Verdict(boolean slow, double ratio, String line) {
    }

    private final FleetBaseline baseline;
    private final List<String> hosts;
    private final Gate gate = new Gate(GateOptions.defaults());
    int judged;
    int without;

    BaselineJudge(FleetBaseline baseline, List<String> hosts) {
        this.baseline = baseline;
        this.hosts = hosts;
    }

    FleetBaseline baseline() {
        return baseline;
    }

    /** The verdict, or null when there is nothing to compare with (no baseline line for this pair and load). */
    Verdict judge(GroupMeasurement m) {
        if (!m.group().isPair() || m.failed() || m.samples() == null) {
            return null;
        }
        List<SizeSamples> base = baseline.lines(hosts.get(m.group().members().get(0)), hosts.get(m.group().members().get(1)), m.load());
        if (base == null) {
            without++;
            return null;
        }
        Map<SizeKey, SizeSamples> byKey = new HashMap<>();
        base.forEach(b -> byKey.put(b.key(), b));
        boolean slow = false;
        boolean any = false;
        double worst = Double.POSITIVE_INFINITY;
        String worstLine = null;
        for (SizeSamples run : m.samples()) {
            SizeSamples b = byKey.get(run.key());
            if (b == null) {
                continue;
            }
            SizeResult r = gate.compare(b, run);
            if (r.status() == SizeResult.Status.UNJUDGED || !(r.baselineValue() > 0)) {
                continue;
            }
            any = true;
            slow |= r.status().fails();
            double ratio = r.runValue() / r.baselineValue();
            if (r.latency()) {
                ratio = 1 / ratio;
            }
            if (ratio < worst) {
                worst = ratio;
                worstLine = run.key().label();
            }
        }
        if (!any) {
            without++;
            return null;
        }
        judged++;
        return new Verdict(slow, worst, worstLine);
    }
}
