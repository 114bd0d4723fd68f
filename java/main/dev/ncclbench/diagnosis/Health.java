package dev.ncclbench.diagnosis;

import dev.ncclbench.ExitCode;

/** The overall judgement of a log, and the exit code `explain` returns for it. */
public enum Health {
    HEALTHY(ExitCode.OK),
    DEGRADED(ExitCode.DEGRADED),
    INIT_FAILED(ExitCode.ENVIRONMENT),
    RUN_FAILED(ExitCode.RUN_FAILED),
    /** No path evidence in the input: never a pass. */
    NO_EVIDENCE(ExitCode.USAGE);

    public final ExitCode exitCode;

    Health(ExitCode exitCode) {
        this.exitCode = exitCode;
    }
}
