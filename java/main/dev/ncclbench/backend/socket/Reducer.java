package dev.ncclbench.backend.socket;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.internal.jni.HostReduce;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * Element-wise {@code dst[i] = a[i] op b[i]} over native-order buffers, for the types the socket backend
 * reduces: float, double, int32, int64. In one vectorised pass of native code ({@link HostReduce}) where the library
 * is loaded and does the type and op, else staged block by block through heap arrays (see {@link #BLOCK}).
 *
 * <p>Why native: Java 17 does not vectorise loops over direct buffers, and the staging's copies cost a large share
 * of the CPU (docs/benchmarks.md#reducer). The results are the same bit for bit (ReducerTest).
 */
final class Reducer {
    private final DataType type;
    private final ReduceOp op;
    /** hostreduce.h's codes for this type and op, or -1 when the Java loops do it. */
    private final int nativeType;
    private final int nativeOp;

    /**
     * Elements per block: the operands are copied into two heap arrays of this many elements, combined there,
     * and the result copied back. Plain loops over arrays are what C2 vectorises (SSE/AVX); loops of
     * ByteBuffer.getFloat/putFloat are not. The bulk copies are memcpy. 4096 elements (16-32 KB per array) keep
     * both arrays in L1 (docs/benchmarks.md#reducer).
     */
    static final int BLOCK = 4096;
    /** Up to this many elements a plain loop on the buffers beats staging them (an 8 B all_reduce reduces 2). */
    private static final int SMALL = 32;

    /**
     * One type's loops, a class per type so that the call site in the transfer loop sees one receiver and the
     * compiler inlines only that type's code: with all four inlined the transfer loop's compile took a rank's CPU
     * in the middle of a timed loop (docs/benchmarks.md#reducer).
     */
    private interface Kernel {
        /** Element indices into whole-buffer views: {@code dst[d + i] = a[x + i] op b[y + i]}. */
        void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n, Staging s);
    }

    /**
     * The two heap blocks a reduction stages through, one per thread that reduces (the caller keeps it: the polling
     * thread one, each blocking connection's reader its own). Not a ThreadLocal: another thread-local's first use
     * deoptimised ThreadLocal.get inside a timed loop (docs/benchmarks.md#reducer).
     */
    static final class Staging {
        private float[][] floats;
        private double[][] doubles;
        private int[][] ints;
        private long[][] longs;

        float[][] floats() {
            if (floats == null) {
                floats = new float[][] {new float[BLOCK], new float[BLOCK]};
            }
            return floats;
        }

        double[][] doubles() {
            if (doubles == null) {
                doubles = new double[][] {new double[BLOCK], new double[BLOCK]};
            }
            return doubles;
        }

        int[][] ints() {
            if (ints == null) {
                ints = new int[][] {new int[BLOCK], new int[BLOCK]};
            }
            return ints;
        }

        long[][] longs() {
            if (longs == null) {
                longs = new long[][] {new long[BLOCK], new long[BLOCK]};
            }
            return longs;
        }
    }

    private final Kernel kernel;

    Reducer(DataType type, ReduceOp op) {
        this(type, op, HostReduce.available());
    }

    /** @param useNative whether to reduce in native code where it does the type and op (false: always Java) */
    Reducer(DataType type, ReduceOp op, boolean useNative) {
        this.type = type;
        this.op = op;
        int nt = switch (type) {
            case FLOAT -> HostReduce.FLOAT;
            case DOUBLE -> HostReduce.DOUBLE;
            case INT32 -> HostReduce.INT32;
            case INT64 -> HostReduce.INT64;
            default -> -1;
        };
        boolean floating = type == DataType.FLOAT || type == DataType.DOUBLE;
        int no = switch (op) {
            case SUM, AVG -> HostReduce.SUM;
            case PROD -> HostReduce.PROD;
            // Java's Math.max and min order NaN and -0.0 in their own way: the Java loops keep them
            case MAX -> floating ? -1 : HostReduce.MAX;
            case MIN -> floating ? -1 : HostReduce.MIN;
            default -> -1;
        };
        boolean native_ = useNative && nt >= 0 && no >= 0;
        this.nativeType = native_ ? nt : -1;
        this.nativeOp = native_ ? no : -1;
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
     *
     * @param s the calling thread's heap blocks (see {@link Staging})
     */
    void reduce(ByteBuffer dst, long dstOff, ByteBuffer a, long aOff, ByteBuffer b, long bOff, long bytes, Staging s) {
        if (kernel == null) {
            throw new IllegalStateException("no reduction for " + type);
        }
        int e = type.bytes();
        long n = bytes / e;
        // up to SMALL elements the Java loop costs less than the call
        if (nativeType >= 0 && n > SMALL
                && HostReduce.reduce(nativeType, nativeOp, atZero(dst), dstOff, atZero(a), aOff, atZero(b), bOff, n)) {
            return;
        }
        kernel.apply(dst, (int) (dstOff / e), a, (int) (aOff / e), b, (int) (bOff / e), (int) n, s);
    }

    /** Whether this reducer's loops are native code. */
    boolean isNative() {
        return nativeType >= 0;
    }

    /** The buffer itself when at position 0, else a view that is (JavaCPP adds a buffer's position to its address). */
    private static ByteBuffer atZero(ByteBuffer b) {
        return b.position() == 0 ? b : b.duplicate().position(0);
    }

    private static final class Floats implements Kernel {
        private final ReduceOp op;

        Floats(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n, Staging s) {
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
            float[][] st = s.floats();
            float[] p = st[0];
            float[] q = st[1];
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
        private final ReduceOp op;

        Doubles(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n, Staging s) {
            DoubleBuffer vd = whole(dst).asDoubleBuffer();
            DoubleBuffer va = whole(a).asDoubleBuffer();
            DoubleBuffer vb = whole(b).asDoubleBuffer();
            double[][] st = s.doubles();
            double[] p = st[0];
            double[] q = st[1];
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
        private final ReduceOp op;

        Ints(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n, Staging s) {
            IntBuffer vd = whole(dst).asIntBuffer();
            IntBuffer va = whole(a).asIntBuffer();
            IntBuffer vb = whole(b).asIntBuffer();
            int[][] st = s.ints();
            int[] p = st[0];
            int[] q = st[1];
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
        private final ReduceOp op;

        Longs(ReduceOp op) {
            this.op = op;
        }

        @Override
        public void apply(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n, Staging s) {
            LongBuffer vd = whole(dst).asLongBuffer();
            LongBuffer va = whole(a).asLongBuffer();
            LongBuffer vb = whole(b).asLongBuffer();
            long[][] st = s.longs();
            long[] p = st[0];
            long[] q = st[1];
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
