package dev.ncclbench.collective;

/**
 * Element counts of one collective call, as nccl-tests' getCollByteCount computes them.
 *
 * @param sendCount elements in each rank's send buffer
 * @param recvCount elements in each rank's receive buffer
 * @param paramCount the count passed to the NCCL call (printed in the "count" column)
 * @param sendInPlaceOffset in-place: elements from the receive buffer's start to this rank's send data,
 *                          multiplied by the rank for gather-like collectives
 * @param recvInPlaceOffset in-place: elements from the send buffer's start to the receive data,
 *                          multiplied by the rank for scatter-like collectives
 */
public record Counts(long sendCount, long recvCount, long paramCount,
                     long sendInPlaceOffset, long recvInPlaceOffset) {

    /** The "size" column: max(send bytes, receive bytes). */
    public long sizeBytes(DataType type) {
        return Math.max(sendCount, recvCount) * type.bytes();
    }

    public static Counts same(long count) {
        return new Counts(count, count, count, 0, 0);
    }
}
