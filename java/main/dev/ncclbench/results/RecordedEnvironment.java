package dev.ncclbench.results;

import dev.ncclbench.Redactor;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The variables that explain a run, as a result records them: NCCL_, CUDA_ and the launchers', secrets redacted. */
public final class RecordedEnvironment {
    private static final List<String> PREFIXES = List.of("NCCL_", "CUDA_", "UCX_", "SLURM_", "OMPI_COMM_WORLD", "NCCLBENCH_");
    private static final List<String> NAMES = List.of("MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK", "LOCAL_RANK",
            "LOCAL_WORLD_SIZE", "LD_LIBRARY_PATH");

    private RecordedEnvironment() {
    }

    public static Map<String, String> of(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : env.entrySet()) {
            String k = e.getKey();
            if (NAMES.contains(k) || PREFIXES.stream().anyMatch(k::startsWith)) {
                out.put(k, Redactor.value(k, e.getValue()));
            }
        }
        return out;
    }
}
