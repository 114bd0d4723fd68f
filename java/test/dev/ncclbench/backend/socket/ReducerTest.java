package dev.ncclbench.backend.socket;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.internal.jni.HostReduce;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native reductions (native/reduce/hostreduce.c, through the real libjniHostReduce.so) give the Java loops'
 * bytes, bit for bit: every type and op, in place (dst is a), into the received piece (dst is b) and apart, at
 * offsets, lengths that are not a multiple of any vector width, buffers not at position 0, and values that
 * overflow, NaN, infinities and -0.0.
 */
class ReducerTest {
    private static final DataType[] TYPES = {DataType.FLOAT, DataType.DOUBLE, DataType.INT32, DataType.INT64};
    private static final ReduceOp[] OPS = {ReduceOp.SUM, ReduceOp.PROD, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.AVG};

    @BeforeAll
    static void library() {
        Assumptions.assumeTrue(HostReduce.available(), "no native reductions here: " + HostReduce.describe());
    }

    @Test
    void nativeAndJavaGiveTheSameBytesForEveryTypeOpAndPlacement() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (DataType t : TYPES) {
            for (ReduceOp op : OPS) {
                for (int n : new int[] {33, 1000, 4096 + 7, 3 * 4096 + 1}) {
                    for (int placement = 0; placement < 3; placement++) {
                        check(t, op, n, placement, rnd);
                    }
                }
            }
        }
    }

    @Test
    void floatMaxAndMinStayInJavaAndTheRestGoNative() {
        assertFalse(new Reducer(DataType.FLOAT, ReduceOp.MAX).isNative());
        assertFalse(new Reducer(DataType.DOUBLE, ReduceOp.MIN).isNative());
        assertTrue(new Reducer(DataType.FLOAT, ReduceOp.SUM).isNative());
        assertTrue(new Reducer(DataType.INT64, ReduceOp.MAX).isNative());
        assertTrue(new Reducer(DataType.DOUBLE, ReduceOp.AVG).isNative());
        assertFalse(new Reducer(DataType.FLOAT, ReduceOp.SUM, false).isNative());
    }

    /** The codes of hostreduce.h: each type and op on a known pair of values. */
    @Test
    void theCodesMeanWhatTheHeaderSays() {
        ByteBuffer d = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        ByteBuffer a = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        ByteBuffer b = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        a.putInt(0, 6);
        b.putInt(0, 7);
        assertTrue(HostReduce.reduce(HostReduce.INT32, HostReduce.PROD, d, 0, a, 0, b, 0, 1));
        assertEquals(42, d.getInt(0));
        assertTrue(HostReduce.reduce(HostReduce.INT32, HostReduce.MIN, d, 0, a, 0, b, 0, 1));
        assertEquals(6, d.getInt(0));
        a.putLong(0, -5);
        b.putLong(0, 3);
        assertTrue(HostReduce.reduce(HostReduce.INT64, HostReduce.MAX, d, 0, a, 0, b, 0, 1));
        assertEquals(3, d.getLong(0));
        a.putDouble(0, 1.5);
        b.putDouble(0, 2.25);
        assertTrue(HostReduce.reduce(HostReduce.DOUBLE, HostReduce.SUM, d, 0, a, 0, b, 0, 1));
        assertEquals(3.75, d.getDouble(0));
        a.putFloat(0, 1.5f);
        b.putFloat(0, 2.5f);
        assertTrue(HostReduce.reduce(HostReduce.FLOAT, HostReduce.SUM, d, 0, a, 0, b, 0, 1));
        assertEquals(4f, d.getFloat(0));
        assertFalse(HostReduce.reduce(HostReduce.FLOAT, HostReduce.MAX, d, 0, a, 0, b, 0, 1), "float max is Java's");
        assertFalse(HostReduce.reduce(7, 0, d, 0, a, 0, b, 0, 1), "no type 7");
    }

    /** placement 0: dst apart; 1: dst is a (in place); 2: dst is b (the piece received into the result). */
    private static void check(DataType t, ReduceOp op, int n, int placement, SplittableRandom rnd) {
        int e = t.bytes();
        int off = 3 * e; // element offsets inside the buffers
        int bytes = (n + 2 * off / e) * e;
        ByteBuffer a0 = filled(t, bytes, rnd);
        ByteBuffer b0 = filled(t, bytes, rnd);
        ByteBuffer d0 = filled(t, bytes, rnd);
        byte[][] results = new byte[2][];
        for (int k = 0; k < 2; k++) {
            ByteBuffer a = copy(a0);
            ByteBuffer b = copy(b0);
            ByteBuffer d = placement == 1 ? a : placement == 2 ? b : copy(d0);
            // not at position 0: JavaCPP adds a buffer's position to its address, the reducer must not
            a.position(e);
            b.position(2 * e);
            new Reducer(t, op, k == 1).reduce(d, off, a, off, b, off, (long) n * e, new Reducer.Staging());
            results[k] = new byte[bytes];
            d.duplicate().clear().get(results[k]);
        }
        assertArrayEquals(results[0], results[1], t + " " + op + " n=" + n + " placement " + placement);
    }

    private static ByteBuffer filled(DataType t, int bytes, SplittableRandom rnd) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        float[] fs = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f, Float.MAX_VALUE, Float.MIN_VALUE};
        double[] ds = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.MAX_VALUE, Double.MIN_VALUE};
        for (int i = 0; i < bytes / t.bytes(); i++) {
            boolean edge = rnd.nextInt(16) == 0;
            switch (t) {
                case FLOAT -> b.putFloat(i * 4, edge ? fs[rnd.nextInt(fs.length)] : (float) (rnd.nextDouble() * 200 - 100));
                case DOUBLE -> b.putDouble(i * 8, edge ? ds[rnd.nextInt(ds.length)] : rnd.nextDouble() * 200 - 100);
                case INT32 -> b.putInt(i * 4, edge ? (rnd.nextBoolean() ? Integer.MAX_VALUE : Integer.MIN_VALUE) : rnd.nextInt());
                case INT64 -> b.putLong(i * 8, edge ? (rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE) : rnd.nextLong());
                default -> throw new IllegalArgumentException(t.toString());
            }
        }
        return b;
    }

    private static ByteBuffer copy(ByteBuffer src) {
        ByteBuffer c = ByteBuffer.allocateDirect(src.capacity()).order(ByteOrder.nativeOrder());
        c.put(src.duplicate().clear()).clear();
        return c;
    }
}
