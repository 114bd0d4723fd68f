package dev.ncclbench.nccllog;

/** Where an extracted item came from: the file (or "-" for stdin) and the 1-based line number. */
public record SourceRef(String file, long line) {
    @Override
    public String toString() {
        return file + ":" + line;
    }
}
