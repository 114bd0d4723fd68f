package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.DataType;

import java.nio.ByteBuffer;

/**
 * Element encoding on the host, for filling and reading back device buffers when the kernels are not
 * used: the same values DataPattern defines, in the bytes of each type (little-endian, IEEE half and
 * bfloat16 by truncation of exact small integers).
 */
final class HostElements {
    private HostElements() {
    }

    static void put(ByteBuffer b, DataType t, long v) {
        switch (t) {
            case INT8: case UINT8: b.put((byte) v); break;
            case INT32: case UINT32: b.putInt((int) v); break;
            case INT64: case UINT64: b.putLong(v); break;
            case HALF: b.putShort(floatToHalf((float) v)); break;
            case BFLOAT16: b.putShort((short) (Float.floatToIntBits((float) v) >>> 16)); break;
            case FLOAT: b.putFloat((float) v); break;
            case DOUBLE: b.putDouble((double) v); break;
            default: throw new IllegalArgumentException(t + " is not supported by the nccl backend's host path");
        }
    }

    static double get(ByteBuffer b, DataType t) {
        switch (t) {
            case INT8: return b.get();
            case UINT8: return b.get() & 0xFF;
            case INT32: return b.getInt();
            case UINT32: return b.getInt() & 0xFFFFFFFFL;
            case INT64: return b.getLong();
            case UINT64: return b.getLong(); // pattern values are far below 2^63
            case HALF: return halfToFloat(b.getShort());
            case BFLOAT16: return Float.intBitsToFloat((b.getShort() & 0xFFFF) << 16);
            case FLOAT: return b.getFloat();
            case DOUBLE: return b.getDouble();
            default: throw new IllegalArgumentException(t.toString());
        }
    }

    /** IEEE 754 binary16, round to nearest even (Java 17 has no Float.floatToFloat16). */
    static short floatToHalf(float f) {
        int bits = Float.floatToIntBits(f);
        int sign = (bits >>> 16) & 0x8000;
        int exp = ((bits >>> 23) & 0xFF) - 127 + 15;
        int mant = bits & 0x7FFFFF;
        if (((bits >>> 23) & 0xFF) == 0xFF) {
            return (short) (sign | 0x7C00 | (mant != 0 ? 0x200 : 0));
        }
        if (exp >= 0x1F) {
            return (short) (sign | 0x7C00);
        }
        if (exp <= 0) {
            if (exp < -10) {
                return (short) sign;
            }
            mant |= 0x800000;
            int shift = 14 - exp;
            int half = mant >> shift;
            int rest = mant & ((1 << shift) - 1);
            int mid = 1 << (shift - 1);
            if (rest > mid || (rest == mid && (half & 1) != 0)) {
                half++;
            }
            return (short) (sign | half);
        }
        int half = (exp << 10) | (mant >> 13);
        int rest = mant & 0x1FFF;
        if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) {
            half++;
        }
        return (short) (sign | half);
    }

    static float halfToFloat(short h) {
        int bits = h & 0xFFFF;
        int sign = (bits & 0x8000) << 16;
        int exp = (bits >>> 10) & 0x1F;
        int mant = bits & 0x3FF;
        if (exp == 0) {
            return (sign == 0 ? 1 : -1) * mant * 0x1p-24f;
        }
        if (exp == 0x1F) {
            return Float.intBitsToFloat(sign | 0x7F800000 | (mant << 13));
        }
        return Float.intBitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
    }
}
