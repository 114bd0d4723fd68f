package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * What the real libnccl.so.2 did in a child process (ncclGetUniqueId runs its bootstrap interface choice).
 *
 * @param status             ncclGetUniqueId's ncclResult_t (0 ok), -1 when it did not run
 * @param bootstrapInterface the interface NCCL logged, or null
 * @param problem            why the probe could not run, or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NcclProbeResult(String library, String version, int status, String statusName, String bootstrapInterface,
                        String bootstrapAddress, List<String> warnings, String problem) {
    public NcclProbeResult {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    public boolean ran() {
        return problem == null && status >= 0;
    }
}
