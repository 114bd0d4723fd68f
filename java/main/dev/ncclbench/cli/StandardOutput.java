package dev.ncclbench.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's standard output, for every command's writer. A reader that goes away (`explain LOG | head`,
 * `baseline show B | head`) is a normal end, as for any Unix tool: the rest of the output is dropped, and the command
 * ends with its own exit code and no error line (it was exit 1, "internal error"). Any other write error, a full disk
 * (`> /dev/full`), still fails the write, and {@link Main} says the output is incomplete (exit 1).
 *
 * <p>The JVM ignores SIGPIPE, so a write to a pipe nobody reads fails with EPIPE. Its message is the C library's and
 * may be translated; what stdout is, a pipe or a socket, is not: on those the only write error is a reader gone.
 */
final class StandardOutput extends OutputStream {
    /** st_mode's file type bits: a FIFO (a pipe) and a socket. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFSOCK = 0140000;

    private final OutputStream out;
    private final Path fd;
    private volatile boolean readerGone;

    /**
     * @param out what to write to
     * @param fd  the file descriptor's entry under /proc/self/fd, asked what the output is after a failed write
     */
    StandardOutput(OutputStream out, Path fd) {
        this.out = out;
        this.fd = fd;
    }

    static StandardOutput of() {
        return new StandardOutput(new FileOutputStream(FileDescriptor.out), Path.of("/proc/self/fd/1"));
    }

    /** Whether the reader went away: everything after was dropped. */
    boolean readerGone() {
        return readerGone;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (readerGone) {
            return;
        }
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            failed(e);
        }
    }

    @Override
    public void flush() throws IOException {
        if (readerGone) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            failed(e);
        }
    }

    @Override
    public void close() throws IOException {
        flush();
    }

    private void failed(IOException e) throws IOException {
        if (!isPipeOrSocket() && !"Broken pipe".equals(e.getMessage())) {
            throw e;
        }
        readerGone = true;
    }

    private boolean isPipeOrSocket() {
        try {
            int type = (Integer) Files.getAttribute(fd, "unix:mode") & S_IFMT;
            return type == S_IFIFO || type == S_IFSOCK;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return false; // no /proc: the message alone says it
        }
    }
}
