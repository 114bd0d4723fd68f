package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.List;

/** "Cuda failure 'out of memory'", "Failed to CUDA calloc 1048576 bytes", cudaErrorXxx, "unhandled cuda error". */
public final class CudaError extends FailureFamilyRule {
    public CudaError() {
        super("CUDA-ERROR",
                "a CUDA call inside NCCL failed (out of memory, Failed to CUDA calloc, cudaError..., unhandled cuda error)");
    }

    @Override
    FailureKind kind() {
        return FailureKind.CUDA;
    }

    @Override
    String title() {
        return "a CUDA call failed inside NCCL";
    }

    private static boolean oom(List<Warning> lines) {
        return lines.stream().anyMatch(w -> {
            String m = w.message().toLowerCase(java.util.Locale.ROOT);
            return m.contains("out of memory") || m.contains("cuda calloc") || m.contains("memory allocation");
        });
    }

    @Override
    String detail(List<Warning> lines) {
        return oom(lines) ? "The GPU ran out of memory while NCCL allocated its buffers: NCCL needs memory per channel"
                + " and per peer on top of the application's tensors." : "CUDA returned an error to NCCL"
                + " (include/checks.h CUDACHECK): a driver or hardware problem, a kernel that faulted before, or a GPU"
                + " that fell off the bus. It is not a network problem.";
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        List<String> r = new ArrayList<>();
        if (oom(lines)) {
            r.add("nvidia-smi --query-gpu=memory.used,memory.total --format=csv   # what else holds the GPU");
            r.add("leave headroom for NCCL (PyTorch: lower the batch, or PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True)");
            r.add("fewer NCCL buffers: NCCL_BUFFSIZE, NCCL_NCHANNELS_PER_NET_PEER, NCCL_MAX_NCHANNELS");
        }
        r.add("dmesg -T | grep -i xid   # Xid errors name the GPU and the fault");
        r.add("nvidia-smi -q | grep -iE 'retired|remapp|ecc'   # memory errors on that GPU");
        r.add("rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel that failed first");
        return r;
    }

    @Override
    String reference() {
        return References.NET_DOC;
    }
}
