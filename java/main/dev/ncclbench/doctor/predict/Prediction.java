package dev.ncclbench.doctor.predict;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * Which interfaces NCCL will use on this host: bootstrap (the first match) and NET/Socket (up to 16 matches).
 *
 * @param nccl the NCCL version whose rules were followed, and why that one ("2.30.7 (the probe)")
 */
public record Prediction(Bootstrap bootstrap, @JsonProperty("socket_interfaces") List<Endpoint> socketInterfaces,
                         String nccl) {
    public Prediction {
        socketInterfaces = List.copyOf(socketInterfaces);
    }

    /** interface and address are null when nothing matches (the "no socket interface found" death). */
    public record Bootstrap(@JsonProperty("interface") String iface, String address, String why) {
    }

    public record Endpoint(@JsonProperty("interface") String iface, String address) {
    }

    public boolean bootstrapFails() {
        return bootstrap.iface() == null;
    }
}
