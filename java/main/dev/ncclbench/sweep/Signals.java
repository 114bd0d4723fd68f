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
 * rows; a second one ends the process at once.
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
            // the second signal: the user means it
            Runtime.getRuntime().halt(CODES.get(name).code);
        }
        received = name;
        err.println("ncclbench: SIG" + name + ": stopping; the rows measured so far are kept (send it again to stop at once)");
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
