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

    /** The algorithm the backend runs for this call ("ring", "rd", ...), for the result row; null when it cannot say. */
    default String algorithm() {
        return null;
    }

    /**
     * Which code a call runs, for the code warm-up: two sizes of one collective with the same path run the same
     * methods, so calls at the cheaper one compile the dearer one's code (sweep.CodeWarmup). Null when the backend
     * cannot say; then each size warms only itself.
     */
    default String codePath() {
        return null;
    }

    /**
     * Starts call number {@code call} of this size and placement: nccl-tests' iteration index, which picks
     * the buffer offset of the call (a backend without one ignores it). Call 0 is where {@link #fill} wrote.
     */
    default void launch(int call) {
        launch();
    }

    /**
     * Before a timed loop of {@code iters} iterations: prepares per-iteration device timing outside the
     * loop. {@code paired} (-z 3): a start and a stop mark per iteration, so the barrier is not timed.
     */
    default void beginTimed(int iters, boolean paired) {
    }

    /** Marks the start of timed iteration i (before its -m group); i = iters closes the unpaired form. */
    default void markStart(int i) {
    }

    /** -z 3: marks the end of timed iteration i, after its calls completed. */
    default void markStop(int i) {
    }

    /** -G: starts capturing the launches of this thread into a graph; false when unsupported. */
    default boolean beginCapture() {
        return false;
    }

    /** -G: ends the capture begun by {@link #beginCapture} and instantiates the graph. */
    default void endCapture() {
    }

    /** Waits for every started call. Throws BackendException on a peer error or the watchdog. */
    void drain();

    /**
     * Number of wrong elements in this rank's output after the last drained call, or -1 when this
     * placement is not checked (nccl-tests reports N/A for in-place alltoall and sendrecv on NCCL).
     */
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

    /** -G: replays the graph captured between {@link #beginCapture} and {@link #endCapture} once. */
    default void launchGraph() {
        throw new UnsupportedOperationException("no graph captured");
    }

    @Override
    void close();
}
