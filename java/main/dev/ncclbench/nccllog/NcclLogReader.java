package dev.ncclbench.nccllog;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Streams NCCL debug output (NCCL 2.3 to 2.30) into {@link NcclLogEvidence}: one or many files (one per rank,
 * as NCCL_DEBUG_FILE writes them), a directory of them, or any stream (stdin). Memory is bounded: lines are
 * cut at {@link #MAX_LINE} bytes, every collection at {@link #MAX_ITEMS}; the rest is counted. It never throws
 * on content; only I/O errors of the underlying stream escape.
 *
 * <pre>
 * NcclLogReader r = new NcclLogReader();
 * r.read(Path.of("nccl.host1.1234"));
 * r.read(System.in, "-");
 * NcclLogEvidence e = r.evidence();
 * </pre>
 */
public final class NcclLogReader {
    /** The most items kept per collection (connections are aggregated over channels before this applies). */
    public static final int MAX_ITEMS = 4096;
    /** Longer lines are cut: NCCL's own lines are under 1 KiB. */
    public static final int MAX_LINE = 16 * 1024;

    private final EvidenceBuilder builder;
    private final LineParser.Parsed parsed = new LineParser.Parsed();

    public NcclLogReader() {
        this(MAX_ITEMS);
    }

    /** A reader with a smaller cap, for tests of the bounds. */
    public NcclLogReader(int maxItems) {
        this.builder = new EvidenceBuilder(maxItems);
    }

    /** Reads a file, or every regular file of a directory (sorted by name, hidden files skipped). */
    public NcclLogReader read(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            List<Path> files;
            try (Stream<Path> s = Files.list(path)) {
                files = new ArrayList<>(s.filter(Files::isRegularFile)
                        .filter(f -> !f.getFileName().toString().startsWith("."))
                        .sorted().toList());
            }
            for (Path f : files) {
                readFile(f);
            }
            return this;
        }
        return readFile(path);
    }

    private NcclLogReader readFile(Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            return read(in, f.toString());
        }
    }

    /** Reads a stream to its end; name is what evidence lines cite ("-" for stdin). Does not close it. */
    public NcclLogReader read(InputStream in, String name) throws IOException {
        builder.source(name);
        byte[] buf = new byte[64 * 1024];
        byte[] line = new byte[MAX_LINE];
        int len = 0;
        boolean cut = false;
        long lineNo = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (buf[i] != '\n') {
                    continue;
                }
                int chunk = i - start;
                int room = MAX_LINE - len;
                if (chunk > room) {
                    chunk = room;
                    cut = true;
                }
                System.arraycopy(buf, start, line, len, chunk);
                len += chunk;
                lineNo++;
                line(line, len, name, lineNo, cut);
                len = 0;
                cut = false;
                start = i + 1;
            }
            int chunk = n - start;
            int room = MAX_LINE - len;
            if (chunk > room) {
                chunk = room;
                cut = true;
            }
            System.arraycopy(buf, start, line, len, chunk);
            len += chunk;
        }
        if (len > 0 || cut) {
            lineNo++;
            line(line, len, name, lineNo, cut);
        }
        return this;
    }

    private void line(byte[] b, int len, String name, long lineNo, boolean cut) {
        if (len > 0 && b[len - 1] == '\r') {
            len--;
        }
        if (cut) {
            builder.truncatedLine();
        }
        String s = new String(b, 0, len, StandardCharsets.UTF_8);
        LineParser.parse(s, parsed);
        builder.accept(parsed, name, lineNo);
    }

    /** What was read so far, as an immutable snapshot. */
    public NcclLogEvidence evidence() {
        return builder.build();
    }

    /** Reads files and directories in order. */
    public static NcclLogEvidence readAll(List<Path> paths) throws IOException {
        NcclLogReader r = new NcclLogReader();
        for (Path p : paths) {
            r.read(p);
        }
        return r.evidence();
    }

    /** Reads lines held in memory (the probe child's log, read whole). */
    public static NcclLogEvidence readLines(List<String> lines, String name) {
        return readString(String.join("\n", lines), name);
    }

    /** Reads text held in memory (tests, a log captured by the sweep). */
    public static NcclLogEvidence readString(String text, String name) {
        try {
            return new NcclLogReader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), name)
                    .evidence();
        } catch (IOException e) {
            throw new IllegalStateException("reading memory cannot fail", e);
        }
    }
}
