package dev.ncclbench.doctor.snapshot;

import java.util.Map;

/** One NCCL configuration file that exists (~/.nccl.conf, /etc/nccl.conf): its VAR=value lines. */
public record ConfFile(String path, Map<String, String> values) {
    public ConfFile {
        values = Map.copyOf(values);
    }
}
