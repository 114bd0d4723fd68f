package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.HangReport;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.RunSpec;

import java.io.PrintStream;
import java.util.List;

/**
 * The -T watchdog for the NCCL calls that can block the calling thread (a group end that connects to a
 * peer that is gone): arming and disarming are two volatile writes, cheap enough around every launch;
 * a daemon thread looks twice a second. When a call stays armed past the limit it cannot be unblocked
 * from another thread without freeing what the blocked thread is using, so the watchdog says which rank
 * did not reach which step and ends the process with the hang exit code. Rows already measured are
 * on disk (the result file is appended row by row). Stream waits are not here: drain polls them itself
 * and aborts the communicators from its own thread.
 */
final class BlockedCallWatchdog {
    private final long limitNs;
    private final long limitS;
    private final PrintStream err;
    private volatile long armedAt;
    private volatile String step;
    private volatile int rank;
    private final Thread thread;

    BlockedCallWatchdog(long limitSeconds, PrintStream err) {
        this.limitS = limitSeconds;
        this.limitNs = limitSeconds * 1_000_000_000L;
        this.err = err;
        this.thread = new Thread(this::watch, "nccl-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /** -T, or spec.Defaults' watchdog when -T is 0. */
    static long limitSeconds(RunSpec spec) {
        return Defaults.watchdogMillis(spec == null ? 0 : spec.timing().timeoutSeconds()) / 1000;
    }

    /** HangReport's wording: "rank 2 did not reach 'ncclCommInitRank' within 3 s" (-T sets the limit). */
    static String hang(int rank, String step, long seconds) {
        return HangReport.didNotReach(List.of(rank), step, seconds * 1000) + " (-T)";
    }

    void arm(int rank, String step) {
        this.rank = rank;
        this.step = step;
        armedAt = System.nanoTime();
    }

    void disarm() {
        armedAt = 0;
    }

    private void watch() {
        while (true) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
            long at = armedAt;
            if (at != 0 && System.nanoTime() - at > limitNs && armedAt == at) {
                err.println("ncclbench: hang: " + hang(rank, step, limitS) + "; the call is blocked inside NCCL, so this"
                        + " process ends here (the rows measured so far are in the result's .partial journal)");
                err.flush();
                Runtime.getRuntime().halt(ExitCode.TIMEOUT.code);
            }
        }
    }

    void close() {
        thread.interrupt();
    }
}
