package dev.ncclbench.fleet;

import dev.ncclbench.netif.InterfaceSelector;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * A site line of the fabric catalog as the rail round reads it: interfaces named {@code match}, or with an address in
 * it when it is a subnet, run at a fabric whose healthy minimum is {@code floorGBps}.
 *
 * @param fabric the fabric's id, for the verdict's words
 * @param source "file:line" of the site line
 */
public record RailRate(String match, String fabric, double floorGBps, String source) {

    boolean covers(NodeRail rail) {
        if (match.equals(rail.ifname()) || match.equals(rail.nic())) {
            return true;
        }
        int slash = match.indexOf('/');
        if (slash < 0 || rail.address() == null) {
            return false;
        }
        try {
            return InterfaceSelector.sameSubnet(InetAddress.getByName(rail.address()),
                    InetAddress.getByName(match.substring(0, slash)), Integer.parseInt(match.substring(slash + 1)));
        } catch (UnknownHostException | NumberFormatException e) {
            return false;
        }
    }

    /**
     * Each rail's line rate: the first site line that covers it, else --fabric's healthy minimum (the fabric the job
     * should use, one NIC of which a rail is), else none.
     */
    static Function<NodeRail, Optional<RailJudge.Line>> lines(List<RailRate> sites, OptionalDouble fabricFloor,
                                                             String fabricSource) {
        return rail -> {
            for (RailRate s : sites) {
                if (s.covers(rail)) {
                    return Optional.of(new RailJudge.Line(s.floorGBps(), String.format(Locale.ROOT,
                            "%s's healthy minimum %s (%s: site %s)", s.fabric(), RailJudge.rate(s.floorGBps()), s.source(), s.match())));
                }
            }
            return fabricFloor.isPresent() ? Optional.of(new RailJudge.Line(fabricFloor.getAsDouble(), fabricSource))
                    : Optional.empty();
        };
    }
}
