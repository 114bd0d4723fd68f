package dev.ncclbench.backend.socket;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

import java.nio.ByteBuffer;

/**
 * Element-wise {@code dst[i] = a[i] op b[i]} over native-order buffers, for the types the socket backend
 * reduces: float, double, int32, int64. Absolute get/put so that the JIT keeps the loops tight.
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

    /** Byte offsets; {@code bytes} a multiple of the element size. AVG sums here; see {@link #finishAverage}. */
    void reduce(ByteBuffer dst, long dstOff, ByteBuffer a, long aOff, ByteBuffer b, long bOff, long bytes) {
        int d = (int) dstOff;
        int x = (int) aOff;
        int y = (int) bOff;
        int n = (int) bytes;
        switch (type) {
            case FLOAT: floats(dst, d, a, x, b, y, n); break;
            case DOUBLE: doubles(dst, d, a, x, b, y, n); break;
            case INT32: ints(dst, d, a, x, b, y, n); break;
            case INT64: longs(dst, d, a, x, b, y, n); break;
            default: throw new IllegalStateException("no reduction for " + type);
        }
    }

    private void floats(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
        switch (op) {
            case SUM: case AVG:
                for (int i = 0; i < n; i += 4) {
                    dst.putFloat(d + i, a.getFloat(x + i) + b.getFloat(y + i));
                }
                break;
            case PROD:
                for (int i = 0; i < n; i += 4) {
                    dst.putFloat(d + i, a.getFloat(x + i) * b.getFloat(y + i));
                }
                break;
            case MAX:
                for (int i = 0; i < n; i += 4) {
                    dst.putFloat(d + i, Math.max(a.getFloat(x + i), b.getFloat(y + i)));
                }
                break;
            case MIN:
                for (int i = 0; i < n; i += 4) {
                    dst.putFloat(d + i, Math.min(a.getFloat(x + i), b.getFloat(y + i)));
                }
                break;
            default: throw new IllegalStateException(op.toString());
        }
    }

    private void doubles(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
        switch (op) {
            case SUM: case AVG:
                for (int i = 0; i < n; i += 8) {
                    dst.putDouble(d + i, a.getDouble(x + i) + b.getDouble(y + i));
                }
                break;
            case PROD:
                for (int i = 0; i < n; i += 8) {
                    dst.putDouble(d + i, a.getDouble(x + i) * b.getDouble(y + i));
                }
                break;
            case MAX:
                for (int i = 0; i < n; i += 8) {
                    dst.putDouble(d + i, Math.max(a.getDouble(x + i), b.getDouble(y + i)));
                }
                break;
            case MIN:
                for (int i = 0; i < n; i += 8) {
                    dst.putDouble(d + i, Math.min(a.getDouble(x + i), b.getDouble(y + i)));
                }
                break;
            default: throw new IllegalStateException(op.toString());
        }
    }

    private void ints(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
        switch (op) {
            case SUM: case AVG:
                for (int i = 0; i < n; i += 4) {
                    dst.putInt(d + i, a.getInt(x + i) + b.getInt(y + i));
                }
                break;
            case PROD:
                for (int i = 0; i < n; i += 4) {
                    dst.putInt(d + i, a.getInt(x + i) * b.getInt(y + i));
                }
                break;
            case MAX:
                for (int i = 0; i < n; i += 4) {
                    dst.putInt(d + i, Math.max(a.getInt(x + i), b.getInt(y + i)));
                }
                break;
            case MIN:
                for (int i = 0; i < n; i += 4) {
                    dst.putInt(d + i, Math.min(a.getInt(x + i), b.getInt(y + i)));
                }
                break;
            default: throw new IllegalStateException(op.toString());
        }
    }

    private void longs(ByteBuffer dst, int d, ByteBuffer a, int x, ByteBuffer b, int y, int n) {
        switch (op) {
            case SUM: case AVG:
                for (int i = 0; i < n; i += 8) {
                    dst.putLong(d + i, a.getLong(x + i) + b.getLong(y + i));
                }
                break;
            case PROD:
                for (int i = 0; i < n; i += 8) {
                    dst.putLong(d + i, a.getLong(x + i) * b.getLong(y + i));
                }
                break;
            case MAX:
                for (int i = 0; i < n; i += 8) {
                    dst.putLong(d + i, Math.max(a.getLong(x + i), b.getLong(y + i)));
                }
                break;
            case MIN:
                for (int i = 0; i < n; i += 8) {
                    dst.putLong(d + i, Math.min(a.getLong(x + i), b.getLong(y + i)));
                }
                break;
            default: throw new IllegalStateException(op.toString());
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
