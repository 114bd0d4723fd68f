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

    /**
     * Elements per block: the operands are copied into two heap arrays of this many elements, combined there,
     * and the result copied back. Plain loops over arrays are what C2 vectorises (SSE/AVX); loops of
     * ByteBuffer.getFloat/putFloat are not, and ran at about 2 GB/s, which on a 2-core machine made the
     * reduction as costly as the transfer itself. The bulk copies are memcpy. 4096 elements (16-32 KB per
     * array) keep both arrays in L1: 8-12 GB/s here, against 7-8 with 8192.
     */
    static final int BLOCK = 4096;
    /** Up to this many elements a plain loop on the buffers beats staging them (an 8 B all_reduce reduces 2). */
    private static final int SMALL = 32;

    /**
     * One type's loops, a class per type so that the call site in the transfer loop sees one receiver and the
     * compiler inlines only that type's code: with all four inlined the transfer loop took 250 ms to compile,
     * which on 2 cores was a rank's CPU gone for 250 ms in the middle of a timed loop.
     */
    private interface Kernel {
        /** Element indices into whole-buffer views: {@code dst[d + i] = a[x + i] op b[y + i]}. */
        void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n);
    }

    private final Kernel kernel;

    Reducer(DataType type, ReduceOp op) {
        this.type = type;
        this.op = op;
        this.kernel = switch (type) {
            case FLOAT -> new Floats(op);
            case DOUBLE -> new Doubles(op);
            case INT32 -> new Ints(op);
            case INT64 -> new Longs(op);
            default -> null;
        };
    }

    static boolean supports(DataType t) {
        return t == DataType.FLOAT || t == DataType.DOUBLE || t == DataType.INT32 || t == DataType.INT64;
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
        if (kernel == null) {
            throw new IllegalStateException("no reduction for " + type);
        }
        int e = type.bytes();
        kernel.apply(dst, (int) (dstOff / e), a, (int) (aOff / e), b, (int) (bOff / e), (int) (bytes / e));
    }

    private static final class Floats implements Kernel {
        private static final ThreadLocal<float[][]> STAGING = ThreadLocal.withInitial(() -> new float[][] {new float[BLOCK], new float[BLOCK]});
        private final ReduceOp op;

        Floats(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
            if (n <= SMALL) {
                for (int i = 0; i < n; i++) {
                    float p = a.getFloat((x + i) * 4);
                    float q = b.getFloat((y + i) * 4);
                    dst.putFloat((d + i) * 4, switch (op) {
                        case SUM, AVG -> p + q;
                        case PROD -> p * q;
                        case MAX -> Math.max(p, q);
                        case MIN -> Math.min(p, q);
                        default -> throw new IllegalStateException(op.toString());
                    });
                }
                return;
            }
            FloatBuffer vd = whole(dst).asFloatBuffer();
            FloatBuffer va = whole(a).asFloatBuffer();
            FloatBuffer vb = whole(b).asFloatBuffer();
            float[][] s = STAGING.get();
            float[] p = s[0];
            float[] q = s[1];
            for (int i = 0; i < n; i += BLOCK) {
                int len = Math.min(BLOCK, n - i);
                va.get(x + i, p, 0, len);
                vb.get(y + i, q, 0, len);
                switch (op) {
                    case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                    case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                    case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                    case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                    default: throw new IllegalStateException(op.toString());
                }
                vd.put(d + i, p, 0, len);
            }
        }
    }

    private static final class Doubles implements Kernel {
        private static final ThreadLocal<double[][]> STAGING = ThreadLocal.withInitial(() -> new double[][] {new double[BLOCK], new double[BLOCK]});
        private final ReduceOp op;

        Doubles(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
            DoubleBuffer vd = whole(dst).asDoubleBuffer();
            DoubleBuffer va = whole(a).asDoubleBuffer();
            DoubleBuffer vb = whole(b).asDoubleBuffer();
            double[][] s = STAGING.get();
            double[] p = s[0];
            double[] q = s[1];
            for (int i = 0; i < n; i += BLOCK) {
                int len = Math.min(BLOCK, n - i);
                va.get(x + i, p, 0, len);
                vb.get(y + i, q, 0, len);
                switch (op) {
                    case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                    case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                    case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                    case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                    default: throw new IllegalStateException(op.toString());
                }
                vd.put(d + i, p, 0, len);
            }
        }
    }

    private static final class Ints implements Kernel {
        private static final ThreadLocal<int[][]> STAGING = ThreadLocal.withInitial(() -> new int[][] {new int[BLOCK], new int[BLOCK]});
        private final ReduceOp op;

        Ints(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
            IntBuffer vd = whole(dst).asIntBuffer();
            IntBuffer va = whole(a).asIntBuffer();
            IntBuffer vb = whole(b).asIntBuffer();
            int[][] s = STAGING.get();
            int[] p = s[0];
            int[] q = s[1];
            for (int i = 0; i < n; i += BLOCK) {
                int len = Math.min(BLOCK, n - i);
                va.get(x + i, p, 0, len);
                vb.get(y + i, q, 0, len);
                switch (op) {
                    case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                    case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                    case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                    case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                    default: throw new IllegalStateException(op.toString());
                }
                vd.put(d + i, p, 0, len);
            }
        }
    }

    private static final class Longs implements Kernel {
        private static final ThreadLocal<long[][]> STAGING = ThreadLocal.withInitial(() -> new long[][] {new long[BLOCK], new long[BLOCK]});
        private final ReduceOp op;

        Longs(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
            LongBuffer vd = whole(dst).asLongBuffer();
            LongBuffer va = whole(a).asLongBuffer();
            LongBuffer vb = whole(b).asLongBuffer();
            long[][] s = STAGING.get();
            long[] p = s[0];
            long[] q = s[1];
            for (int i = 0; i < n; i += BLOCK) {
                int len = Math.min(BLOCK, n - i);
                va.get(x + i, p, 0, len);
                vb.get(y + i, q, 0, len);
                switch (op) {
                    case SUM: case AVG: for (int j = 0; j < len; j++) { p[j] += q[j]; } break;
                    case PROD: for (int j = 0; j < len; j++) { p[j] *= q[j]; } break;
                    case MAX: for (int j = 0; j < len; j++) { p[j] = Math.max(p[j], q[j]); } break;
                    case MIN: for (int j = 0; j < len; j++) { p[j] = Math.min(p[j], q[j]); } break;
                    default: throw new IllegalStateException(op.toString());
                }
                vd.put(d + i, p, 0, len);
            }
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
