package dev.ncclbench.sweep;

import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.io.PrintWriter;

/** A progress bar on stderr when stderr is a terminal; nothing at all when piped. */
interface Progress extends AutoCloseable {
    Progress NONE = new Progress() {
        @Override
        public void step() {
        }

        @Override
        public void close() {
        }
    };

    void step();

    @Override
    void close();

    /**
     * Whether stderr is a terminal. System.console() answers for stdin and stdout, and `sweep > table.txt`
     * still deserves a bar, so on Linux ask what file descriptor 2 is.
     */
    static boolean stderrIsTerminal() {
        try {
            String target = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    /** @param host TERM=dumb (an editor's shell, a CI log) gets no bar */
    static Progress start(long rows, PrintWriter err, Host host) {
        if (!stderrIsTerminal() || "dumb".equals(host.get(Variable.TERM))) {
            return NONE;
        }
        ProgressBar bar = new ProgressBarBuilder().setTaskName("sweep").setInitialMax(rows)
                .setStyle(ProgressBarStyle.ASCII)
                .setConsumer(new ConsoleProgressBarConsumer(new PrintStream(System.err, true)))
                .clearDisplayOnFinish()
                .build();
        return new Progress() {
            @Override
            public synchronized void step() {
                bar.step();
            }

            @Override
            public void close() {
                bar.close();
                err.flush();
            }
        };
    }
}
