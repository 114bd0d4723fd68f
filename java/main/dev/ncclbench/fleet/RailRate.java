package dev.ncclbench.fleet;

import dev.ncclbench.diagnosis.FabricCatalog;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * A rail's line rate for the rail round: the catalog's site lines, read as doctor reads them
 * ({@link FabricCatalog.Site#covers}: the interface or NIC name, a prefix ending in '*', a subnet of its address).
 */
final class RailRate {
    private RailRate() {
    }

    /**
     * Each rail's line rate: the first site line that covers it, else --fabric's healthy minimum (the fabric the job
     * should use, one NIC of which a rail is), else none.
     */
    static Function<NodeRail, Optional<RailJudge.Line>> lines(List<FabricCatalog.Site> sites, OptionalDouble fabricFloor,
                                                             String fabricSource) {
        return rail -> {
            List<String> names = Arrays.asList(rail.ifname(), rail.nic());
            List<String> addresses = rail.address() == null ? List.of() : List.of(rail.address());
            for (FabricCatalog.Site s : sites) {
                if (s.covers(names, addresses)) {
                    double floor = s.fabric().healthyMinGBps();
                    return Optional.of(new RailJudge.Line(floor, String.format(Locale.ROOT,
                            "%s's healthy minimum %s (%s: site %s)", s.fabric().id(), RailJudge.rate(floor), s.source(), s.match())));
                }
            }
            return fabricFloor.isPresent() ? Optional.of(new RailJudge.Line(fabricFloor.getAsDouble(), fabricSource))
                    : Optional.empty();
        };
    }
}
