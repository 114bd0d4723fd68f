package dev.ncclbench.gate.curve;

import dev.ncclbench.finding.RuleBook;

import java.util.List;

/** The curve check's rules, in the order they are reported. */
public final class CurveRules {
    private static final RuleBook<Curve> BOOK = new RuleBook<>("curve", List.of(
            new StallsAtSocketFloor(), new SocketPathOnFabric(), new UnderHealthyBand(), new BusbwDips(), new LatencyDrops()));

    private CurveRules() {
    }

    public static RuleBook<Curve> book() {
        return BOOK;
    }
}
