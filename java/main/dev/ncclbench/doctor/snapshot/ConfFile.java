package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.Map;

/** One NCCL configuration file that exists (~/.nccl.conf, /etc/nccl.conf): its VAR=value lines. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ConfFile(String path, Map<String, String> values) {
    public ConfFile {
        values = Map.copyOf(values);
    }
}
