package dev.ncclbench.diagnosis;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one GPU can copy, GB/s: the ceiling of a one-rank sweep, where NCCL moves nothing between GPUs (busbw is 0 by
 * nccl-tests' definition) and an out-of-place collective is a copy within the GPU's memory. A copy reads and writes
 * every byte, so it reaches half the memory's bandwidth: memory clock x 2 (double data rate) x bus width / 8, halved.
 * From NVML's figures when the run recorded them, else from the model's datasheet bandwidth.
 *
 * @param gbps   the copy limit, GB/s (1e9 B/s)
 * @param source how it was known, for the reader: "NVML: memory clock 3201 MHz x 6016-bit bus"
 */
public record CopyLimit(double gbps, String source) {
    /**
     * Datasheet memory bandwidth (GB/s) by a part of NVIDIA's model name, most specific first; only parts whose
     * figure is NVIDIA's own. NVML's clock and width win where the run recorded them.
     */
    private static final Map<String, Double> DATASHEET = new LinkedHashMap<>();

    static {
        DATASHEET.put("H200", 4800.0);
        DATASHEET.put("H100 PCIe", 2000.0);
        DATASHEET.put("H100 NVL", 3900.0);
        DATASHEET.put("H100 80GB HBM3", 3350.0);
        DATASHEET.put("A100-SXM4-80GB", 2039.0);
        DATASHEET.put("A100 80GB PCIe", 1935.0);
        DATASHEET.put("A100-SXM4-40GB", 1555.0);
        DATASHEET.put("A100-PCIE-40GB", 1555.0);
        DATASHEET.put("B200", 8000.0);
        DATASHEET.put("L40S", 864.0);
    }

    /**
     * @param clockMhz NVML's maximum memory clock, or null
     * @param widthBits NVML's memory bus width, or null
     * @param model    the GPU's name ("NVIDIA H200"), or null
     */
    public static Optional<CopyLimit> of(String clockMhz, String widthBits, String model) {
        try {
            if (clockMhz != null && widthBits != null) {
                double clock = Double.parseDouble(clockMhz);
                double width = Double.parseDouble(widthBits);
                if (clock > 0 && width > 0) {
                    return Optional.of(new CopyLimit(clock * 1e6 * 2 * width / 8 / 2 / 1e9, String.format(Locale.ROOT,
                            "NVML: memory clock %.0f MHz x %.0f-bit bus, read and write", clock, width)));
                }
            }
        } catch (NumberFormatException e) {
            // a hand-edited file: fall back to the model
        }
        if (model != null) {
            for (Map.Entry<String, Double> e : DATASHEET.entrySet()) {
                if (model.contains(e.getKey())) {
                    return Optional.of(new CopyLimit(e.getValue() / 2, String.format(Locale.ROOT,
                            "%s datasheet memory bandwidth %.0f GB/s, read and write", e.getKey(), e.getValue())));
                }
            }
        }
        return Optional.empty();
    }

    /** "89.3% of the GPU's copy limit 2407 GB/s (NVML: ...)". */
    public String describe(double algbw) {
        return String.format(Locale.ROOT, "%.1f%% of the GPU's copy limit %.0f GB/s (%s)", algbw / gbps * 100, gbps, source);
    }
}
