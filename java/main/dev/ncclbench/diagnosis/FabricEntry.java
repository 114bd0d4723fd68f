package dev.ncclbench.diagnosis;

import dev.ncclbench.diagnosis.facts.RouteKind;

/**
 * One line of the fabric catalog.
 *
 * @param lineGBps   line rate in GB/s (1e9 bytes/s), per NIC or per GPU
 * @param healthyMin the lowest fraction of line rate a healthy large-message busbw reaches
 * @param healthyMax the highest (above 1 for NVLS, whose busbw can exceed the link)
 * @param path       what a healthy result means: socket, rdma, p2p, nvls
 */
public record FabricEntry(String id, String kind, double lineGBps, double healthyMin, double healthyMax, String path,
                          String description) {

    public double healthyMinGBps() {
        return lineGBps * healthyMin;
    }

    /** A fabric whose healthy path is TCP sockets (an Ethernet line without RDMA): sockets are no degradation on it. */
    public boolean socketPath() {
        return path.equals(RouteKind.SOCKET.id);
    }

    public boolean interNode() {
        return kind.equals("ethernet") || kind.equals("ib") || kind.equals("roce");
    }
}
