package dev.ncclbench.sweep;

import dev.ncclbench.ExitCode;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SIGINT and SIGTERM (what Slurm sends on scancel and at the time limit) end a sweep cleanly: the first one stops
 * the ranks of this process (the runner closes their data paths), and the run finishes as "interrupted" with its
 * rows; a second SIGINT ends the process at once (a second SIGTERM is ignored: Slurm sends it from more than one
 * process, then SIGKILL after KillWait).
 */
final class Signals implements AutoCloseable {
    private static final Map<String, ExitCode> CODES = Map.of("INT", ExitCode.INTERRUPTED, "TERM", ExitCode.TERMINATED);
    private final List<Signal> installed = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile String received;
    private volatile Runnable onSignal = () -> { };

    /** Installs the handlers; {@link #close} puts the JVM's back. */
    static Signals install(PrintWriter err) {
        Signals s = new Signals();
        for (String name : CODES.keySet()) {
            try {
                Signal sig = new Signal(name);
                s.previous.add(Signal.handle(sig, x -> s.handle(name, err)));
                s.installed.add(sig);
            } catch (IllegalArgumentException e) {
                // this platform or JVM does not let us handle it: its default applies
            }
        }
        return s;
    }

    private void handle(String name, PrintWriter err) {
        if (received != null) {
            if (name.equals("INT")) {
                // a second Ctrl-C: the user means it
                Runtime.getRuntime().halt(CODES.get(name).code);
            }
            // a second SIGTERM is not a person insisting: under sbatch a task gets one from its slurmstepd and one
            // forwarded by srun, which the batch step's SIGTERM reached too; halting on it lost rank 0's result.
            // Slurm's SIGKILL after KillWait still ends a run that cannot stop.
            return;
        }
        received = name;
        err.println("ncclbench: SIG" + name + ": stopping; the rows measured so far are kept ("
                + (name.equals("INT") ? "send it again to stop at once)" : "SIGKILL stops it at once)"));
        err.flush();
        onSignal.run();
    }

    /** What to do when the first signal comes (close the ranks' data paths, so that a blocked rank wakes). */
    void onSignal(Runnable action) {
        onSignal = action;
        if (received != null) {
            action.run();
        }
    }

    /** "SIGTERM", or null when no signal came. */
    String received() {
        return received == null ? null : "SIG" + received;
    }

    ExitCode exitCode() {
        return received == null ? null : CODES.get(received);
    }

    @Override
    public void close() {
        for (int i = 0; i < installed.size(); i++) {
            Signal.handle(installed.get(i), previous.get(i));
        }
    }
}
