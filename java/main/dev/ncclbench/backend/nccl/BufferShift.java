package dev.ncclbench.backend.nccl;

/**
 * nccl-tests' per-call buffer offset: both buffers are allocated at the sweep's largest size, and call k
 * of a size starts {@code total x (k mod (maxBytes / total))} bytes in, where total is the larger of the
 * size's send and receive bytes. Consecutive calls then touch different memory, so a size below the L2
 * cache (about 60 MB on an H200) is not timed on cached copies. Call 0 (the synchronising call and the
 * check) is at offset 0, where the data was written.
 */
final class BufferShift {
    private BufferShift() {
    }

    /** Bytes into both buffers for the given call index. */
    static long offset(long sendBytes, long recvBytes, long maxBytes, long call) {
        return Math.max(sendBytes, recvBytes) * (call % steps(sendBytes, recvBytes, maxBytes));
    }

    /** How many shifted calls fit before the offset wraps to 0 (computed once per operation: a division). */
    static long steps(long sendBytes, long recvBytes, long maxBytes) {
        long total = Math.max(sendBytes, recvBytes);
        return total == 0 ? 1 : Math.max(1, maxBytes / total);
    }
}
