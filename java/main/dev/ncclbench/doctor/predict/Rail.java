package dev.ncclbench.doctor.predict;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * One GPU and the NIC port(s) NCCL's topology pairs it with: rail N is the Nth GPU in PCI bus order (CUDA's order for
 * identical GPUs), so rail 3 of one node faces rail 3 of another on a rail-optimised fabric.
 *
 * @param rail         the GPU's index, from 0
 * @param nic          the NIC NCCL sees: "mlx5_3", a merged dual-port NIC "mlx5_0+mlx5_1", several joined by ", "
 *                     when the GPU spreads its channels over more than one; null when there is none
 * @param distance     from the GPU to that NIC; null when there is none
 * @param ports        the NIC's ports, whatever their state: what NCCL would use were every port up
 * @param excluded     ports NCCL would also or rather use, that NCCL_IB_HCA (or NCCL_SOCKET_IFNAME) leaves out
 * @param ncclUses     the NICs NCCL uses for this GPU as the ports are now (down and left-out ports skipped)
 * @param ncclDistance from the GPU to those
 * @param sharedWith   the other rails NCCL puts on the same NIC
 * @param verdict      the worst of {@code problems}, OK when there are none
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"rail", "gpu", "nic", "distance", "ports", "excluded", "nccl_uses", "nccl_distance", "shared_with",
        "verdict", "problems"})
public record Rail(int rail, Gpu gpu, String nic, PathType distance, List<NicPort> ports, List<NicPort> excluded,
                   List<String> ncclUses, PathType ncclDistance, List<Integer> sharedWith, RailVerdict verdict,
                   List<Problem> problems) {
    public Rail {
        ports = List.copyOf(ports);
        excluded = List.copyOf(excluded);
        ncclUses = List.copyOf(ncclUses);
        sharedWith = List.copyOf(sharedWith);
        problems = List.copyOf(problems);
    }

    /**
     * One GPU.
     *
     * @param busId    "0000:18:00.0"
     * @param model    from /proc/driver/nvidia/gpus/BUS/information, else the PCI device id
     * @param numaNode its numa_node; null unknown
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Gpu(String busId, String model, Integer numaNode, String pciPath) {
    }

    /** One thing wrong, on one port (null: the rail as a whole), in a sentence that names the numbers. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Problem(RailVerdict verdict, String port, String why) {
    }

    /** "rail 3 (GPU 0000:9a:00.0)". */
    @JsonIgnore
    public String label() {
        return "rail " + rail + " (GPU " + gpu.busId() + ")";
    }

    /** The same rail with its verdict. */
    Rail judged(RailVerdict v, List<Problem> p) {
        return new Rail(rail, gpu, nic, distance, ports, excluded, ncclUses, ncclDistance, sharedWith, v, p);
    }

    @JsonIgnore
    public boolean has(RailVerdict v) {
        return problems.stream().anyMatch(p -> p.verdict() == v);
    }
}
