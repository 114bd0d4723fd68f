package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.Versions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** GPUDirect RDMA's prerequisites: peer memory, or DMA-BUF (open kernel module, CUDA >= 11.7, Turing+, kernel >= 5.12). */
final class GpuDirect {
    private static final List<String> PRE_TURING = List.of("K80", "K40", "M40", "M60", "P100", "P40", "P4", "V100", "TITAN V", "GTX");

    private GpuDirect() {
    }

    /** The DMA-BUF prerequisites this host misses; empty when all are met. */
    static List<String> dmaBufUnmet(HostSnapshot s) {
        List<String> out = new ArrayList<>();
        Boolean open = s.nvidia().openKernelModule();
        if (!Boolean.TRUE.equals(open)) {
            out.add(open == null ? "driver flavour unknown (no /proc/driver/nvidia/version)" : "the driver is the proprietary kernel module, not the open one");
        }
        if (kernelBelow(s.kernel(), 5, 12)) {
            out.add("kernel " + s.kernel() + " < 5.12");
        }
        String cuda = s.versions().cudaRuntime();
        if (cuda != null && Versions.code(cuda + (cuda.chars().filter(c -> c == '.').count() < 2 ? ".0" : "")) < 110700) {
            out.add("CUDA " + cuda + " < 11.7");
        }
        for (var g : s.nvidia().gpus()) {
            String m = g.model().toUpperCase(Locale.ROOT);
            if (PRE_TURING.stream().anyMatch(m::contains)) {
                out.add(g.model() + " is older than Turing");
                break;
            }
        }
        return out;
    }

    static boolean kernelBelow(String kernel, int major, int minor) {
        if (kernel == null) {
            return false;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(kernel);
        if (!m.find()) {
            return false;
        }
        int a = Integer.parseInt(m.group(1));
        int b = Integer.parseInt(m.group(2));
        return a < major || a == major && b < minor;
    }
}
