package dev.ncclbench.sweep;

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

    static Progress start(long rows, PrintWriter err) {
        // System.console() is null when stdin or stdout is redirected; the bar draws on stderr, so ask about it too
        if (System.console() == null || System.getenv("TERM") == null || "dumb".equals(System.getenv("TERM"))) {
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
