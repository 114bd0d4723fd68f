package dev.ncclbench.nccllog;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads many files on the available cores: each file into a reader of its own, merged into the target in the order
 * given. Merging in order makes the evidence the same as reading one file after the other; the window of files in
 * flight bounds the memory to a few files' worth, whatever the number of files (8192 ranks, one file each).
 */
final class ParallelRead {
    /** A file to read; named when the user named it (not found in a directory). */
    record Input(Path path, boolean named) {
    }

    private ParallelRead() {
    }

    static void read(NcclLogReader into, List<Input> files) throws IOException {
        int threads = Math.min(files.size(), Runtime.getRuntime().availableProcessors());
        if (threads <= 1) {
            for (Input f : files) {
                into.readFile(f);
            }
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "ncclbench-log-reader");
            t.setDaemon(true);
            return t;
        });
        try {
            ArrayDeque<Future<NcclLogReader>> window = new ArrayDeque<>();
            for (Input f : files) {
                window.add(pool.submit(() -> {
                    NcclLogReader part = new NcclLogReader(into.maxItems);
                    part.readFile(f);
                    return part;
                }));
                if (window.size() >= threads * 4) {
                    merge(into, window.poll());
                }
            }
            while (!window.isEmpty()) {
                merge(into, window.poll());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void merge(NcclLogReader into, Future<NcclLogReader> next) throws IOException {
        NcclLogReader part;
        try {
            part = next.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading NCCL logs");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(c);
        }
        into.builder.merge(part.builder);
        into.skipped.addAll(part.skipped);
    }
}
