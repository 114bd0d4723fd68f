package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * The NVIDIA kernel side: driver, whether it is the open kernel module, peer memory, GPUs.
 *
 * @param driverVersion   from /proc/driver/nvidia/version, null when no driver is loaded
 * @param openKernelModule whether that line says "Open Kernel Module" (DMA-BUF needs it); null unknown
 * @param peerMem         "nvidia_peermem" or "nv_peer_mem" when loaded, else null
 * @param peerMemEvidence the file that showed it, or the files looked at
 * @param gpus            from /proc/driver/nvidia/gpus
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Nvidia(String driverVersion, Boolean openKernelModule, String peerMem, String peerMemEvidence,
                     List<Gpu> gpus) {
    public static final Nvidia NONE = new Nvidia(null, null, null, null, List.of());

    public Nvidia {
        gpus = gpus == null ? List.of() : List.copyOf(gpus);
    }

    /** One GPU: PCI bus id, model, and its path under /sys/devices (for the GPU-NIC distance). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Gpu(String busId, String model, String pciPath) {
    }
}
