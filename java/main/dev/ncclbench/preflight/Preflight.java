package dev.ncclbench.preflight;

import dev.ncclbench.ExitCode;
import dev.ncclbench.gate.GateReport;

/** The one verdict of a preflight, from what its steps said. */
public final class Preflight {
    private Preflight() {
    }

    /** The sweep's exit code and its last line on stderr (the reason of a failure or a degraded path). */
    public record Sweep(int exitCode, String lastLine) {
    }

    /** PASS, DEGRADED or FAIL, the reason, and the exit code (0, 6, or the failure's 3-5). */
    public record Verdict(String word, String reason, ExitCode exitCode) {
        public String line() {
            return word + ": " + reason;
        }
    }

    /**
     * FAIL when the sweep could not run or ran wrong (its exit 1-5), DEGRADED when NCCL's log showed a degraded
     * path (the sweep's exit 6) or the gate found a regression or a degraded curve, PASS otherwise.
     *
     * @param gate null when the gate did not run
     */
    public static Verdict decide(Sweep sweep, GateReport gate) {
        if (sweep.exitCode() != ExitCode.OK.code && sweep.exitCode() != ExitCode.DEGRADED.code) {
            ExitCode c = switch (sweep.exitCode()) {
                case 3 -> ExitCode.ENVIRONMENT;
                case 5 -> ExitCode.TIMEOUT;
                case 2 -> ExitCode.USAGE;
                default -> ExitCode.RUN_FAILED;
            };
            return new Verdict("FAIL", "the sweep " + (c == ExitCode.USAGE ? "was refused" : "failed") + " (exit "
                    + sweep.exitCode() + ")" + (sweep.lastLine() == null ? "" : ": " + sweep.lastLine()), c);
        }
        if (sweep.exitCode() == ExitCode.DEGRADED.code) {
            return new Verdict("DEGRADED", sweep.lastLine() == null ? "the path verdict is degraded" : sweep.lastLine(),
                    ExitCode.DEGRADED);
        }
        if (gate != null && gate.verdict() != GateReport.Verdict.PASS) {
            return new Verdict("DEGRADED", gate.verdictLine(), ExitCode.DEGRADED);
        }
        if (gate == null) {
            return new Verdict("PASS", "the sweep ran on this rank; rank 0 judges the results", ExitCode.OK);
        }
        return new Verdict("PASS", gate.verdictLine().replaceFirst("^PASS: ", ""), ExitCode.OK);
    }
}
