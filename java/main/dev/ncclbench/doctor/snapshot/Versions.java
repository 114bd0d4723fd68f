package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.NcclVersionCode;

/**
 * The versions found, each with the file it came from.
 *
 * @param nccl          "2.30.7", from the probe or the library's file name; null when no NCCL was found
 * @param cudaRuntime   "13.0.96" from libcudart's file name
 * @param ofed          the mlx5_core / OFED version from /sys/module, or null
 * @param verbsLibrary  where libibverbs.so.1 is, or null when it is not installed
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Versions(String nccl, String ncclLibrary, String cudaRuntime, String cudaRuntimeLibrary, String ofed,
                       String verbsLibrary) {
    public static final Versions NONE = new Versions(null, null, null, null, null, null);

    /** NCCL's version code (2.30.7 -> 23007), or 0 when unknown. */
    public int ncclCode() {
        return code(nccl);
    }

    public static int code(String version) {
        if (version == null) {
            return 0;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)").matcher(version);
        if (!m.find()) {
            return 0;
        }
        return NcclVersionCode.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }
}
