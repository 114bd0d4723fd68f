package dev.ncclbench.doctor.predict;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * Which interfaces NCCL will use on this host: bootstrap (the first match) and NET/Socket (up to 16 matches).
 *
 * @param nccl the NCCL version whose rules were followed, and why that one ("2.30.7 (the probe)")
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Prediction(Bootstrap bootstrap, List<Endpoint> socketInterfaces,
                         String nccl) {
    public Prediction {
        socketInterfaces = List.copyOf(socketInterfaces);
    }

    /** interface and address are null when nothing matches (the "no socket interface found" death). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Bootstrap(@JsonProperty("interface") String iface, String address, String why) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Endpoint(@JsonProperty("interface") String iface, String address) {
    }

    public boolean bootstrapFails() {
        return bootstrap.iface() == null;
    }
}
