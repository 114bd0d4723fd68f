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
 * as NCCL_DEBUG_FILE writes them), a directory of them, or any stream (stdin). Several files are read in parallel
 * (see {@link ParallelRead}) and give the same evidence as one after the other. Memory is bounded: lines are cut at
 * {@link #MAX_LINE} bytes, every list at {@link #MAX_ITEMS}; the rest is counted. Input that is not a log at all
 * (binary, /dev/zero) ends with {@link NotAnNcclLogException} after {@link #SNIFF_BYTES}. It never throws on the
 * content of a log; only I/O errors of the underlying stream escape.
 *
 * <pre>
 * NcclLogReader r = new NcclLogReader();
 * r.read(List.of(Path.of("logs/")));
 * r.read(System.in, "-");
 * NcclLogEvidence e = r.evidence();
 * </pre>
 */
public final class NcclLogReader {
    /**
     * The most items kept per collection (connections are aggregated over channels before this applies): room for
     * every rank of an 8192-rank job, a few hundred bytes each. Per-host facts are not capped by it.
     */
    public static final int MAX_ITEMS = 1 << 16;
    /** Longer lines are cut (and counted): NCCL's own lines are under 1 KiB. */
    public static final int MAX_LINE = 16 * 1024;
    /** A source with no NCCL line in this many bytes that is not lines of text is not an NCCL log. */
    public static final int SNIFF_BYTES = 1 << 20;


    final int maxItems;
    final EvidenceBuilder builder;
    final List<String> skipped = new ArrayList<>();
    private final LineParser.Parsed parsed = new LineParser.Parsed();
    /**
     * The headers ("host:pid:tid [dev] NCCL INFO ") of this file's recent INFO lines, ASCII, and their lengths (0: none):
     * a COLL trace line with one of these header bytes is counted without being parsed ({@link #sameHeaderTrace}).
     * Several, because a node's file interleaves its 8 ranks line by line.
     */
    private final byte[][] headers = new byte[HEADERS][512];
    private final int[] headerLens = new int[HEADERS];
    private int nextHeader;
    private int lastHit;
    private static final int HEADERS = 16;
    /** Off: every line parsed (tests compare the evidence both ways). */
    boolean traceByHeader = true;

    public NcclLogReader() {
        this(MAX_ITEMS);
    }

    /** A reader with a smaller cap, for tests of the bounds. */
    public NcclLogReader(int maxItems) {
        this.maxItems = maxItems;
        this.builder = new EvidenceBuilder(maxItems);
    }

    /**
     * Reads a file, or every regular file of a directory and the folders below it (sorted by path, hidden ones and
     * result files skipped).
     */
    public NcclLogReader read(Path path) throws IOException {
        return read(List.of(path));
    }

    /**
     * Reads files and directories in the order given, several files in parallel on the available cores. A named file
     * that is not an NCCL log throws {@link NotAnNcclLogException}; such a file found in a directory is skipped and
     * listed in {@link #skipped()}.
     */
    public NcclLogReader read(List<Path> paths) throws IOException {
        List<ParallelRead.Input> files = new ArrayList<>();
        java.util.Map<String, Integer> byName = new java.util.TreeMap<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                // a folder of run folders (results/runs/): each keeps its NCCL logs beside its result files
                try (Stream<Path> s = Files.walk(p, MAX_DEPTH)) {
                    s.filter(Files::isRegularFile).filter(f -> !hidden(p, f)).sorted().forEach(f -> {
                        String ext = extension(f);
                        if (NOT_LOGS.contains(ext)) {
                            byName.merge("." + ext, 1, Integer::sum);
                        } else {
                            files.add(new ParallelRead.Input(f, false));
                        }
                    });
                }
            } else {
                files.add(new ParallelRead.Input(p, true));
            }
        }
        if (!byName.isEmpty()) {
            List<String> kinds = new ArrayList<>();
            byName.forEach((ext, n) -> kinds.add(n + " " + ext));
            skipped.add(byName.values().stream().mapToInt(Integer::intValue).sum() + " file(s) that are results or"
                    + " reports by their names, not logs (" + String.join(", ", kinds) + ")");
        }
        ParallelRead.read(this, files);
        return this;
    }

    /** How deep a folder is searched: DIR/run/file, and a Slurm job's DIR/job/node/file. */
    static final int MAX_DEPTH = 4;
    /** What ncclbench and its users keep beside NCCL's logs in run folders: never a log, not worth opening. */
    private static final java.util.Set<String> NOT_LOGS = java.util.Set.of("json", "partial", "html", "png", "svg", "xml",
            "md", "prom", "gz", "tgz", "tar", "zip", "pdf");

    private static String extension(Path f) {
        String n = f.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot < 0 ? "" : n.substring(dot + 1).toLowerCase(java.util.Locale.ROOT);
    }

    /** A dot-file or anything under a dot-folder below the folder named (.git, .cache). */
    private static boolean hidden(Path dir, Path f) {
        for (Path part : dir.relativize(f)) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** Reads one file into this reader; a file found in a directory that is not a log is skipped. */
    void readFile(ParallelRead.Input f) throws IOException {
        try (InputStream in = Files.newInputStream(f.path())) {
            read(in, f.path().toString());
        } catch (NotAnNcclLogException e) {
            if (f.named()) {
                throw e;
            }
            skipped.add(e.getMessage());
        }
    }

    /** Files found in directories that were not NCCL logs, one sentence each. */
    public List<String> skipped() {
        return List.copyOf(skipped);
    }

    /** Reads a stream to its end; name is what evidence lines cite ("-" for stdin). Does not close it. */
    public NcclLogReader read(InputStream in, String name) throws IOException {
        builder.source(name);
        java.util.Arrays.fill(headerLens, 0);
        Sniff sniff = new Sniff(builder.ncclLines(), builder.truncated());
        byte[] buf = new byte[256 * 1024];
        byte[] line = new byte[MAX_LINE];
        int len = 0;
        boolean cut = false;
        long lineNo = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            int start = 0;
            int i;
            while ((i = newline(buf, start, n)) >= 0) {
                lineNo++;
                if (len == 0 && !cut) {
                    int end = Math.min(i, start + MAX_LINE);
                    line(buf, start, end - start, name, lineNo, i - start > MAX_LINE);
                } else {
                    int chunk = Math.min(i - start, MAX_LINE - len);
                    System.arraycopy(buf, start, line, len, chunk);
                    line(line, 0, len + chunk, name, lineNo, cut || chunk < i - start);
                    len = 0;
                    cut = false;
                }
                start = i + 1;
            }
            int chunk = Math.min(n - start, MAX_LINE - len);
            System.arraycopy(buf, start, line, len, chunk);
            len += chunk;
            cut |= chunk < n - start;
            if (sniff.undecided() && sniff.scan(buf, n, lineNo, builder) && !sniff.isLog()) {
                throw new NotAnNcclLogException(sniff.why(name));
            }
        }
        if (len > 0 || cut) {
            lineNo++;
            line(line, 0, len, name, lineNo, cut);
        }
        if (sniff.undecided() && sniff.atEnd(lineNo, builder) && !sniff.isLog()) {
            throw new NotAnNcclLogException(sniff.why(name));
        }
        return this;
    }

    /**
     * The first '\n' in {@code buf[from, to)}, or -1: eight bytes at a time (a zero byte of word ^ 0x0A.. found with
     * the (x - 0x01..) & ~x & 0x80.. test, whose lowest set bit is exact), then byte by byte. A fifth of the reading
     * time went to the loop a byte at a time.
     */
    private static int newline(byte[] buf, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(buf, i) ^ 0x0A0A0A0A0A0A0A0AL;
            long t = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L;
            if (t != 0) {
                return i + (Long.numberOfTrailingZeros(t) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private void line(byte[] b, int off, int len, String name, long lineNo, boolean cut) {
        if (len > 0 && b[off + len - 1] == '\r') {
            len--;
        }
        if (cut) {
            builder.truncatedLine();
        } else if (traceByHeader && sameHeaderTrace(b, off, len)) {
            builder.traceLine(); // what parsing it would do: count it, and nothing else
            return;
        }
        String s = new String(b, off, len, StandardCharsets.UTF_8);
        LineParser.parse(s, parsed);
        builder.accept(parsed, name, lineNo);
        remember(s, b, off, len, name);
    }

    /**
     * Whether the line is NCCL's per-call trace ("AllReduce: opCount 3f sendbuff ...", NCCL_DEBUG_SUBSYS=COLL: most of a
     * big job's log) behind the very header of a recent INFO line of this file: a process already counted here, and a
     * message {@link EvidenceBuilder#collectiveTrace} skips. Only true where parsing would find exactly that (parsing
     * would only refresh the caches of the process last seen); any doubt parses.
     */
    private boolean sameHeaderTrace(byte[] b, int off, int len) {
        int h = 0;
        // the header that matched last first: a file of one rank matches it every time
        for (int k = 0; k < HEADERS && h == 0; k++) {
            int j = (lastHit + k) % HEADERS;
            int l = headerLens[j];
            if (l > 0 && len > l && java.util.Arrays.equals(b, off, off + l, headers[j], 0, l)) {
                h = l;
                lastHit = j;
            }
        }
        if (h == 0) {
            return false;
        }
        int m = off + h;
        int end = off + len;
        while (m < end && b[m] <= ' ' && b[m] >= 0) {
            m++; // String.trim()
        }
        for (int k = m; k < end && k - m < 24; k++) {
            byte c = b[k];
            if (c == ':') {
                return k - m > 3 && k + 10 < end && b[k + 10] > ' '
                        && java.util.Arrays.equals(b, k + 1, k + 10, OP_COUNT, 0, 9);
            }
            if (c <= ' ' || c >= 0x7f) {
                return false; // a space before the colon, a control or a non-ASCII byte: parse it
            }
        }
        return false;
    }

    private static final byte[] OP_COUNT = " opCount ".getBytes(StandardCharsets.US_ASCII);

    /**
     * Keeps an ASCII INFO line's header for {@link #sameHeaderTrace}, unless it is kept already, when its process is
     * counted for this file (more than 1024 processes of one host in one file are not: each line looks again).
     */
    private void remember(String s, byte[] b, int off, int len, String name) {
        if (parsed.level != LineParser.Level.INFO || parsed.host.isEmpty() || s.length() != len || s.indexOf('\u001b') >= 0
                || !builder.processSeen(parsed, name)) {
            return; // a process past the caps would be looked at again by each of its lines: parse them
        }
        int i = s.indexOf("NCCL ");
        int h = i + 10;
        if (i < 0 || !s.startsWith("INFO ", i + 5) || h >= len || h > headers[0].length) {
            return;
        }
        for (int j = 0; j < HEADERS; j++) {
            if (headerLens[j] == h && java.util.Arrays.equals(b, off, off + h, headers[j], 0, h)) {
                return;
            }
        }
        int j = nextHeader;
        nextHeader = (nextHeader + 1) % HEADERS;
        System.arraycopy(b, off, headers[j], 0, h);
        headerLens[j] = h;
    }

    /** What was read so far, as an immutable snapshot. */
    public NcclLogEvidence evidence() {
        return builder.build();
    }

    /** Reads files and directories in order (in parallel when there are several files). */
    public static NcclLogEvidence readAll(List<Path> paths) throws IOException {
        return new NcclLogReader().read(paths).evidence();
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
        } catch (NotAnNcclLogException e) {
            return NcclLogReader.readLines(List.of(), name); // binary text held in memory: no NCCL output
        } catch (IOException e) {
            throw new IllegalStateException("reading memory cannot fail", e);
        }
    }
}
