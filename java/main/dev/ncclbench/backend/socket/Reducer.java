package dev.ncclbench.backend.socket;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * Element-wise {@code dst[i] = a[i] op b[i]} over native-order buffers, for the types the socket backend
 * reduces: float, double, int32, int64, staged block by block through heap arrays (see {@link #BLOCK}).
 */
final class Reducer {
    private final DataType type;
    private final ReduceOp op;

    Reducer(DataType type, ReduceOp op) {
        this.type = type;
        this.op = op;
    }

    static boolean supports(DataType t) {
        return t == DataType.FLOAT || t == DataType.DOUBLE || t == DataType.INT32 || t == DataType.INT64;
    }

    /**
     * Elements per block: the operands are copied into two heap arrays of this many elements, combined there,
     * and the result copied back. Plain loops over arrays are what C2 vectorises (SSE/AVX); loops of
     * ByteBuffer.getFloat/putFloat are not, and ran at about 2 GB/s, which on a 2-core machine made the
     * reduction as costly as the transfer itself. The bulk copies are memcpy. 8192 elements (32-64 KB per
     * array) keep both arrays in L1/L2.
     */
    static final int BLOCK = 8192;

    /** Per-thread staging arrays: one Reducer serves every connection thread of a collective at once. */
    private static final ThreadLocal<Staging> STAGING = ThreadLocal.withInitial(Staging::new);

    private static final class Staging {
        float[] fa, fb;
        double[] da, db;
        int[] ia, ib;
        long[] la, lb;
    }

    /** A view of the whole buffer (position 0, native order), for absolute bulk transfers by element index. */
    private static ByteBuffer whole(ByteBuffer b) {
        return b.duplicate().order(ByteOrder.nativeOrder()).clear();
    }

    /**
     * Byte offsets; {@code bytes} a multiple of the element size, offsets multiples of it too. {@code dst} may
     * be {@code a} (in place) at the same offset: each block is read whole before it is written. AVG sums
     * here; see {@link #finishAverage}.
     */
    void reduce(ByteBuffer dst, long dstOff, ByteBuffer a, long aOff, ByteBuffer b, long bOff, long bytes) {
        int e = type.bytes();
        int d = (int) (dstOff / e);
        int x = (int) (aOff / e);
        int y = (int) (bOff / e);
        int n = (int) (bytes / e);
        Staging s = STAGING.get();
        switch (type) {
            case FLOAT: floats(s, whole(dst).asFloatBuffer(), d, whole(a).asFloatBuffer(), x, whole(b).asFloatBuffer(), y, n); break;
            case DOUBLE: doubles(s, whole(dst).asDoubleBuffer(), d, whole(a).asDoubleBuffer(), x, whole(b).asDoubleBuffer(), y, n); break;
            case INT32: ints(s, whole(dst).asIntBuffer(), d, whole(a).asIntBuffer(), x, whole(b).asIntBuffer(), y, n); break;
            case INT64: longs(s, whole(dst).asLongBuffer(), d, whole(a).asLongBuffer(), x, whole(b).asLongBuffer(), y, n); break;
            default: throw new IllegalStateException("no reduction for " + type);
        }
    }

    private void floats(Staging s, FloatBuffer dst, int d, FloatBuffer a, int x, FloatBuffer b, int y, int n) {
        if (s.fa == null) {
            s.fa = new float[BLOCK];
            s.fb = new float[BLOCK];
        }
        float[] p = s.fa;
        float[] q = s.fb;
        for (int i = 0; i < n; i += BLOCK) {
            int len = Math.min(BLOCK, n - i);
            a.get(x + i, p, 0, len);
            b.get(y + i, q, 0, len);
            switch (op) {
                case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                default: throw new IllegalStateException(op.toString());
            }
            dst.put(d + i, p, 0, len);
        }
    }

    private void doubles(Staging s, DoubleBuffer dst, int d, DoubleBuffer a, int x, DoubleBuffer b, int y, int n) {
        if (s.da == null) {
            s.da = new double[BLOCK];
            s.db = new double[BLOCK];
        }
        double[] p = s.da;
        double[] q = s.db;
        for (int i = 0; i < n; i += BLOCK) {
            int len = Math.min(BLOCK, n - i);
            a.get(x + i, p, 0, len);
            b.get(y + i, q, 0, len);
            switch (op) {
                case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                default: throw new IllegalStateException(op.toString());
            }
            dst.put(d + i, p, 0, len);
        }
    }

    private void ints(Staging s, IntBuffer dst, int d, IntBuffer a, int x, IntBuffer b, int y, int n) {
        if (s.ia == null) {
            s.ia = new int[BLOCK];
            s.ib = new int[BLOCK];
        }
        int[] p = s.ia;
        int[] q = s.ib;
        for (int i = 0; i < n; i += BLOCK) {
            int len = Math.min(BLOCK, n - i);
            a.get(x + i, p, 0, len);
            b.get(y + i, q, 0, len);
            switch (op) {
                case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                default: throw new IllegalStateException(op.toString());
            }
            dst.put(d + i, p, 0, len);
        }
    }

    private void longs(Staging s, LongBuffer dst, int d, LongBuffer a, int x, LongBuffer b, int y, int n) {
        if (s.la == null) {
            s.la = new long[BLOCK];
            s.lb = new long[BLOCK];
        }
        long[] p = s.la;
        long[] q = s.lb;
        for (int i = 0; i < n; i += BLOCK) {
            int len = Math.min(BLOCK, n - i);
            a.get(x + i, p, 0, len);
            b.get(y + i, q, 0, len);
            switch (op) {
                case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                default: throw new IllegalStateException(op.toString());
            }
            dst.put(d + i, p, 0, len);
        }
    }

    /** AVG: divides the sums in place by n (integer types truncate, as NCCL's ncclAvg does). */
    void finishAverage(ByteBuffer buf, long off, long bytes, int n) {
        if (op != ReduceOp.AVG) {
            return;
        }
        int o = (int) off;
        int len = (int) bytes;
        switch (type) {
            case FLOAT: for (int i = 0; i < len; i += 4) { buf.putFloat(o + i, buf.getFloat(o + i) / n); } break;
            case DOUBLE: for (int i = 0; i < len; i += 8) { buf.putDouble(o + i, buf.getDouble(o + i) / n); } break;
            case INT32: for (int i = 0; i < len; i += 4) { buf.putInt(o + i, buf.getInt(o + i) / n); } break;
            case INT64: for (int i = 0; i < len; i += 8) { buf.putLong(o + i, buf.getLong(o + i) / n); } break;
            default: throw new IllegalStateException("no reduction for " + type);
        }
    }
}
