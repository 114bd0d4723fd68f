package dev.ncclbench.backend;

/**
 * Buffers and state for one collective at one size and placement on one rank. The sweep calls
 * {@link #fill}, then batches of {@link #launch} followed by {@link #drain}, then {@link #verify}.
 */
public interface Operation extends AutoCloseable {

    /** Writes this rank's inputs (DataPattern) and poisons the outputs. */
    void fill();

    /** Starts one call. May return before it completes ({@link Capability#ASYNC_LAUNCH}). */
    void launch();

    /** Waits for every started call. Throws BackendException on a peer error or the watchdog. */
    void drain();

    /** Number of wrong elements in this rank's output after the last drained call. */
    long verify();

    /** -m: calls between these two are aggregated into one group call. */
    default void groupStart() {
    }

    default void groupEnd() {
    }

    /**
     * Device-timed durations of the calls of the last drained batch, in microseconds, or null when the
     * backend has none (then the sweep uses host time between launches, exact for synchronous backends).
     */
    default double[] batchSamplesUs() {
        return null;
    }

    /** -G: captures {@code calls} launches into a graph; false when unsupported. */
    default boolean captureGraph(int calls) {
        return false;
    }

    /** -G: replays the captured graph once. */
    default void launchGraph() {
        throw new UnsupportedOperationException("no graph captured");
    }

    @Override
    void close();
}
