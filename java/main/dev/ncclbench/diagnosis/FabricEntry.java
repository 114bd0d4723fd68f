package dev.ncclbench.diagnosis;

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

    public boolean interNode() {
        return kind.equals("ethernet") || kind.equals("ib") || kind.equals("roce");
    }
}
