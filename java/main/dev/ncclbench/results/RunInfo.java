package dev.ncclbench.results;

import dev.ncclbench.spec.RunSpec;

import java.util.List;
import java.util.Map;

/**
 * Everything known about a run before its first row: written first, so that a partial result
 * still says what it was.
 *
 * @param backendReason   why this backend ran (e.g. "auto: no NVIDIA driver (libcuda.so.1 not found)")
 * @param versions        "ncclbench", "java", "nccl", "cuda_runtime", "driver", "ofed", "os" as known
 * @param environment     NCCL_*, CUDA_*, UCX_*, OMPI_*, SLURM_* variables; secrets redacted
 * @param ncclLogFiles    the run's NCCL_DEBUG_FILE outputs, relative to the JSON's folder
 * @param notes           lines the header prints after the options (e.g. why -e was capped)
 * @param commandLine     the command as typed ("ncclbench", "sweep", ...), URL passwords redacted; empty when unknown
 * @param backendAsked    --backend as given: auto, nccl or socket (backend is the one that ran)
 */
public record RunInfo(String toolVersion, String startedAt, String backend, String backendReason, RunSpec spec,
                      int nranks, Map<String, String> versions, List<RankInfo> ranks,
                      Map<String, String> environment, List<String> ncclLogFiles, List<String> notes,
                      List<String> commandLine, String backendAsked) {

    public RunInfo {
        commandLine = commandLine == null ? List.of() : List.copyOf(commandLine);
    }

    /** A run without a recorded command line (built in code, or read from an older file). */
    public RunInfo(String toolVersion, String startedAt, String backend, String backendReason, RunSpec spec,
                   int nranks, Map<String, String> versions, List<RankInfo> ranks,
                   Map<String, String> environment, List<String> ncclLogFiles, List<String> notes) {
        this(toolVersion, startedAt, backend, backendReason, spec, nranks, versions, ranks, environment, ncclLogFiles,
                notes, List.of(), spec == null ? null : spec.backend());
    }
}
