package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;

import java.util.Map;

/**
 * What a CUDA runtime status (cudaError_t, driver_types.h) means for the run: the statuses that say this
 * machine cannot run CUDA at all are "environment not ready" (exit 3), everything else is a failed run
 * (exit 4). Kept apart from NCCL's statuses: the two enums overlap in value (35 is
 * cudaErrorInsufficientDriver, not an NCCL code), so a CUDA status must never go through the NCCL checker.
 */
final class CudaStatus {
    static final int SUCCESS = 0;
    static final int NOT_READY = 600;

    /** The values are fixed in driver_types.h; PlanningTest pins them against the CUDA headers when present. */
    static final Map<Integer, String> ENVIRONMENT = Map.ofEntries(
            Map.entry(3, "cudaErrorInitializationError"),
            Map.entry(34, "cudaErrorStubLibrary"),
            Map.entry(35, "cudaErrorInsufficientDriver"),
            Map.entry(36, "cudaErrorCallRequiresNewerDriver"),
            Map.entry(46, "cudaErrorDevicesUnavailable"),
            Map.entry(100, "cudaErrorNoDevice"),
            Map.entry(101, "cudaErrorInvalidDevice"),
            Map.entry(209, "cudaErrorNoKernelImageForDevice"),
            Map.entry(222, "cudaErrorUnsupportedPtxVersion"),
            Map.entry(802, "cudaErrorSystemNotReady"),
            Map.entry(803, "cudaErrorSystemDriverMismatch"),
            Map.entry(804, "cudaErrorCompatNotSupportedOnDevice"));

    private CudaStatus() {
    }

    static ExitCode exitCode(int status) {
        if (status == SUCCESS) {
            return ExitCode.OK;
        }
        return ENVIRONMENT.containsKey(status) ? ExitCode.ENVIRONMENT : ExitCode.RUN_FAILED;
    }

    /** The enum name for the statuses that decide the exit code, else "cudaError <n>". */
    static String name(int status) {
        String n = ENVIRONMENT.get(status);
        return n != null ? n : status == 2 ? "cudaErrorMemoryAllocation" : "cudaError " + status;
    }

    /** What to change for an environment status, or null. */
    static String remedy(int status) {
        switch (status) {
            case 34:
                return "libcuda.so.1 found is the toolkit's stub: put the driver's libcuda.so.1 first (ldconfig -p | grep libcuda)";
            case 35: case 36: case 803:
                return "the NVIDIA driver is older than this CUDA 13 runtime needs: update the driver"
                        + " (nvidia-smi prints the highest CUDA version it supports)";
            case 100: case 46:
                return "no usable GPU: check nvidia-smi, CUDA_VISIBLE_DEVICES, and (in a container) --gpus all";
            case 101:
                return "a GPU index above what is visible: lower -g/-t or processes per node, or check CUDA_VISIBLE_DEVICES";
            case 209: case 222:
                return "the kernels were not built for this GPU: rebuild with NCCLBENCH_CUDA_ARCHS including its compute capability";
            default:
                return null;
        }
    }
}
