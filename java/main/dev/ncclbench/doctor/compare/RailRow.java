package dev.ncclbench.doctor.compare;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.PathType;
import dev.ncclbench.doctor.predict.Rail;

import java.util.List;

/**
 * One rail of one node as `doctor --compare` lines the nodes up: what must agree across nodes for rail N of one to talk
 * to rail N of another at the same rate.
 *
 * @param nic       the NIC port(s), "mlx5_3:1"
 * @param state     "up", or the first port's state that is not ("DOWN / Polling")
 * @param rate      the ports' rates, each once: "400 Gb/sec (4X NDR)"
 * @param linkLayer "InfiniBand" or "Ethernet" (several joined by "+")
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"rail", "gpu", "nic", "distance", "state", "rate", "link_layer", "verdict"})
public record RailRow(int rail, String gpu, String nic, PathType distance, String state, String rate, String linkLayer,
                      String verdict) {
    static RailRow of(Rail r) {
        List<NicPort> ports = r.ports();
        if (ports.isEmpty()) {
            return new RailRow(r.rail(), r.gpu().busId(), null, null, "none", null, null, r.verdict().word);
        }
        String state = ports.stream().filter(p -> !p.up()).map(NicPort::stateText).findFirst().orElse("up");
        return new RailRow(r.rail(), r.gpu().busId(), String.join(", ", ports.stream().map(NicPort::name).toList()),
                r.distance(), state, String.join(", ", ports.stream().map(p -> p.up() ? p.rate().text() : "down").distinct()
                        .toList()),
                String.join("+", ports.stream().map(NicPort::linkLayerText).distinct().toList()),
                r.verdict().word);
    }

    /** "mlx5_3:1 PIX up, 400 Gb/sec (4X NDR), InfiniBand: ok". */
    public String text() {
        return nic == null ? "no NIC: " + verdict : nic + " " + distance + " " + state + ", " + rate + ", " + linkLayer + ": "
                + verdict;
    }
}
