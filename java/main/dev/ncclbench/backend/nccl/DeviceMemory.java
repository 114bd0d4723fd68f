package dev.ncclbench.backend.nccl;

import dev.ncclbench.backend.MemoryBudget;
import dev.ncclbench.spec.Sizes;
import org.bytedeco.cuda.global.nvml;
import org.bytedeco.cuda.nvml.nvmlDevice_st;
import org.bytedeco.cuda.nvml.nvmlMemory_t;
import org.bytedeco.javacpp.Loader;

/**
 * How much of a GPU the sweep's buffers may take, as nccl-tests v2.19.6 caps maxBytes (common.cu, after
 * writeDeviceReport): of the smallest GPU's total memory, keep 1 GiB per 16 GiB installed (at most 4 GiB) and 1 GiB
 * for the rest, and divide by the buffers it holds (send, receive, and with -c the expected result). ncclbench holds
 * two (it checks on the GPU against the pattern), but takes nccl-tests' divisor so that the same flags sweep the same
 * sizes. Read through NVML: the backend is ready (readiness ran) and CUDA is not loaded yet.
 */
final class DeviceMemory {
    private static final long GIB = 1L << 30;

    private DeviceMemory() {
    }

    /** nccl-tests' memMaxBytes for a GPU of {@code totalBytes}: the largest -e it sweeps there. */
    static long capBytes(long totalBytes, boolean check) {
        long reserve = Math.min(ceilDiv(totalBytes, 16 * GIB) * GIB, 4 * GIB);
        return Math.max(0, totalBytes - reserve - GIB) / (check ? 3 : 2);
    }

    /**
     * The budget the sweep's memory check judges -e by: per GPU (every rank has its own), room = the cap's numerator,
     * buffers = the cap's divisor.
     */
    static MemoryBudget budget(long smallestTotal, boolean check) {
        int buffers = check ? 3 : 2;
        return MemoryBudget.perDevice("device memory of the smallest GPU (" + Sizes.human(smallestTotal)
                + ", less nccl-tests' reserve)", buffers, capBytes(smallestTotal, check) * buffers,
                "as nccl-tests caps it (\"Reducing maxBytes due to memory limitation\")");
    }

    /** The smallest GPU's total memory from NVML, or -1 when NVML does not answer (then nothing is checked). */
    static long smallestTotal() {
        try {
            Loader.load(nvml.class);
            if (nvml.nvmlInit_v2() != 0) {
                return -1;
            }
            int[] count = new int[1];
            if (nvml.nvmlDeviceGetCount_v2(count) != 0 || count[0] == 0) {
                return -1;
            }
            long smallest = Long.MAX_VALUE;
            for (int i = 0; i < count[0]; i++) {
                nvmlDevice_st dev = new nvmlDevice_st();
                nvmlMemory_t mem = new nvmlMemory_t();
                if (nvml.nvmlDeviceGetHandleByIndex_v2(i, dev) != 0 || nvml.nvmlDeviceGetMemoryInfo(dev, mem) != 0) {
                    return -1;
                }
                smallest = Math.min(smallest, mem.total());
            }
            return smallest;
        } catch (Throwable t) {
            return -1;
        }
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
