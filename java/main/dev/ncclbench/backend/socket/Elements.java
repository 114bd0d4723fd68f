package dev.ncclbench.backend.socket;

import dev.ncclbench.collective.DataType;

import java.nio.ByteBuffer;

/** Reads and writes one element of any type at a byte offset of a native-order buffer, as a double. */
final class Elements {
    private Elements() {
    }

    static void write(ByteBuffer b, int off, DataType t, double v) {
        switch (t) {
            case INT8: case UINT8: b.put(off, (byte) (long) v); break;
            case INT32: case UINT32: b.putInt(off, (int) (long) v); break;
            case INT64: case UINT64: b.putLong(off, (long) v); break;
            case FLOAT: b.putFloat(off, (float) v); break;
            case DOUBLE: b.putDouble(off, v); break;
            case HALF: b.putShort(off, (short) narrow((float) v, 5, 10)); break;
            case BFLOAT16: b.putShort(off, (short) (Float.floatToRawIntBits((float) v) >>> 16)); break;
            case F8E4M3: b.put(off, (byte) narrow((float) v, 4, 3)); break;
            case F8E5M2: b.put(off, (byte) narrow((float) v, 5, 2)); break;
            default: throw new IllegalStateException(t.toString());
        }
    }

    static double read(ByteBuffer b, int off, DataType t) {
        switch (t) {
            case INT8: return b.get(off);
            case UINT8: return b.get(off) & 0xFF;
            case INT32: return b.getInt(off);
            case UINT32: return b.getInt(off) & 0xFFFFFFFFL;
            case INT64: case UINT64: return b.getLong(off);
            case FLOAT: return b.getFloat(off);
            case DOUBLE: return b.getDouble(off);
            case HALF: return widen(b.getShort(off) & 0xFFFF, 5, 10);
            case BFLOAT16: return Float.intBitsToFloat((b.getShort(off) & 0xFFFF) << 16);
            case F8E4M3: return widen(b.get(off) & 0xFF, 4, 3);
            case F8E5M2: return widen(b.get(off) & 0xFF, 5, 2);
            default: throw new IllegalStateException(t.toString());
        }
    }

    /**
     * A normal float to a small float format by truncation: exact for the small integers DataPattern writes,
     * which is all the socket backend ever stores in these types.
     */
    static int narrow(float f, int expBits, int mantBits) {
        int bits = Float.floatToRawIntBits(f);
        int sign = bits >>> 31;
        int exp = (bits >>> 23) & 0xFF;
        int mant = bits & 0x7FFFFF;
        if (exp == 0) {
            return sign << (expBits + mantBits);
        }
        int bias = (1 << (expBits - 1)) - 1;
        int e = exp - 127 + bias;
        e = Math.max(0, Math.min((1 << expBits) - 1, e));
        return (sign << (expBits + mantBits)) | (e << mantBits) | (mant >>> (23 - mantBits));
    }

    static double widen(int v, int expBits, int mantBits) {
        int sign = (v >>> (expBits + mantBits)) & 1;
        int e = (v >>> mantBits) & ((1 << expBits) - 1);
        int m = v & ((1 << mantBits) - 1);
        if (e == 0 && m == 0) {
            return sign == 1 ? -0.0 : 0.0;
        }
        int bias = (1 << (expBits - 1)) - 1;
        double value = e == 0 ? m / (double) (1 << mantBits) * Math.pow(2, 1 - bias)
                : (1 + m / (double) (1 << mantBits)) * Math.pow(2, e - bias);
        return sign == 1 ? -value : value;
    }
}
