package dev.ncclbench;

/** The one table of exit codes: every --help lists them (cli.ExitCodes), README.md holds {@link #markdown()}. */
public enum ExitCode {
    OK(0, "ok"),
    INTERNAL(1, "internal error"),
    USAGE(2, "usage error (bad flag, bad size, unknown collective or type)"),
    ENVIRONMENT(3, "environment not ready (no NCCL, no GPU, bootstrap would fail, doctor errors)"),
    RUN_FAILED(4, "run failed (wrong results, rank lost, NCCL error)"),
    TIMEOUT(5, "timeout / hang"),
    DEGRADED(6, "regression against baseline or degraded path"),
    NO_BASELINE(7, "no baseline to compare with: none was measured as the run was (gate; --curve-only judges the"
            + " curve alone)"),
    INTERRUPTED(130, "interrupted by SIGINT (Ctrl-C): rows measured are kept, status interrupted"),
    TERMINATED(143, "terminated by SIGTERM (scancel, a time limit): rows measured are kept, status interrupted");

    public final int code;
    public final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** The code's constant; INTERNAL for a number no constant has. */
    public static ExitCode of(int code) {
        for (ExitCode e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return INTERNAL;
    }

    /** The table as README.md holds it (a test keeps the two equal). */
    public static String markdown() {
        StringBuilder sb = new StringBuilder("| code | meaning |\n|---|---|\n");
        for (ExitCode e : values()) {
            sb.append("| ").append(e.code).append(" | ").append(e.meaning).append(" |\n");
        }
        return sb.toString();
    }
}
