package dev.ncclbench.gate.curve;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.RuleBook;

import java.util.List;
import java.util.Set;

/** The curve check's rules, in the order they are reported. */
public final class CurveRules {
    public static final RuleBook<Curve> BOOK = new RuleBook<>("curve", List.of(
            new StallsAtSocketFloor(), new UnderHealthyBand(), new BusbwDips(), new LatencyDrops()));

    private CurveRules() {
    }

    public static List<Finding> check(Curve curve, Set<String> ignored) {
        return BOOK.run(curve, ignored);
    }
}
