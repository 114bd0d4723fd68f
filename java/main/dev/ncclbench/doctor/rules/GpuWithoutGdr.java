package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.Nvidia;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;
import java.util.Locale;

/** No GPU, or consumer GPUs: GPUDirect RDMA is not on the menu, so sockets or host-staged RDMA are expected. */
public final class GpuWithoutGdr extends BaseRule<HostEvidence> {
    public GpuWithoutGdr() {
        super("GPU-NO-GDR", Severity.INFO,
                "no GPU listed, or consumer GPUs without GPUDirect RDMA: a socket or host-staged path is expected, not a fallback");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (s.nvidia().gpus().isEmpty()) {
            return List.of(finding(Severity.INFO, "no NVIDIA GPU listed" + (s.nvidia().driverVersion() == null ? " (no driver loaded)" : ""),
                    "Doctor judged the host's network only; the nccl backend cannot run here (the socket backend can).",
                    List.of("/proc/driver/nvidia/gpus: " + (s.nvidia().driverVersion() == null ? "missing" : "empty")), List.of(), References.NCCLBENCH));
        }
        List<String> consumer = s.nvidia().gpus().stream().map(Nvidia.Gpu::model)
                .filter(m -> m.toUpperCase(Locale.ROOT).contains("GEFORCE")).distinct().toList();
        if (consumer.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.INFO, "consumer GPUs (" + String.join(", ", consumer) + ") do not support GPUDirect RDMA",
                "The runbook's pre-check: a workstation card runs over sockets or host-staged RDMA by design; that is not a"
                        + " fallback to diagnose.",
                List.of("/proc/driver/nvidia/gpus: " + consumer), List.of(), References.RUNBOOK));
    }
}
