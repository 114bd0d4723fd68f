package dev.ncclbench.backend.socket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether threads on this machine are waiting for a CPU: the kernel's count of runnable threads (the fourth field
 * of /proc/loadavg, "running/total", counting the caller) against the CPUs this JVM may use. One positional read,
 * about 1 us, so a polling rank can ask it every time it thinks of parking ({@link Poller}).
 *
 * <p>Where the count cannot be read (not Linux) or is not this JVM's to use (a container whose quota is below the
 * machine's CPUs sees the whole machine's threads), the answer leans to "crowded": the rank parks as it did before.
 */
final class RunQueue {
    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private final FileChannel file;
    private final ByteBuffer buf = ByteBuffer.allocate(128);
    private final int cpus;

    private RunQueue(FileChannel file, int cpus) {
        this.file = file;
        this.cpus = cpus;
    }

    /** This machine's run queue, or one that always says "crowded" where /proc/loadavg is not there. */
    static RunQueue open() {
        int cpus = Runtime.getRuntime().availableProcessors();
        try {
            return new RunQueue(FileChannel.open(LOADAVG, StandardOpenOption.READ), cpus);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return new RunQueue(null, cpus);
        }
    }

    /** True when more threads are runnable than this JVM has CPUs: some thread is waiting for one. */
    boolean crowded() {
        int running = running();
        return running < 0 || running > cpus;
    }

    /** The runnable threads now, the caller included; -1 when unknown. */
    int running() {
        if (file == null) {
            return -1;
        }
        try {
            buf.clear();
            int n = file.read(buf, 0);
            return parse(buf.array(), n);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The number before the '/' of the fourth field of "0.52 0.58 0.59 3/229 12345"; -1 when it is not there. */
    static int parse(byte[] text, int length) {
        int field = 0;
        int i = 0;
        while (i < length && field < 3) {
            if (text[i++] == ' ') {
                field++;
            }
        }
        int value = 0;
        int digits = 0;
        while (i < length && text[i] >= '0' && text[i] <= '9' && digits < 9) {
            value = value * 10 + (text[i++] - '0');
            digits++;
        }
        return digits > 0 && i < length && text[i] == '/' ? value : -1;
    }

    void close() {
        if (file != null) {
            try {
                file.close();
            } catch (IOException ignored) {
                // a read-only proc file: nothing was written that could be lost
            }
        }
    }
}
