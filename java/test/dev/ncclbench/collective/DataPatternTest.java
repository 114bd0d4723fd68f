package dev.ncclbench.collective;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The crafted inputs reduce exactly in any order, and matches() is exact except avg on floating types. */
class DataPatternTest {
    private static final int[] RANKS = {1, 2, 3, 4, 8};
    private static final DataType[] TYPES = {DataType.INT8, DataType.UINT8, DataType.INT32, DataType.UINT32,
            DataType.INT64, DataType.UINT64, DataType.FLOAT, DataType.DOUBLE};

    @Test
    void inputsAreSmallPositiveIntegers() {
        for (int r = 0; r < 8; r++) {
            for (long i = 0; i < 2000; i++) {
                long v = DataPattern.input(r, i, ReduceOp.SUM);
                assertTrue(v >= 1 && v <= 8, "sum input " + v);
                long p = DataPattern.input(r, i, ReduceOp.PROD);
                assertTrue(p == 1 || p == 2, "prod input " + p);
            }
        }
    }

    @Test
    void inputsDifferAcrossRanksAndIndices() {
        // a pattern that is the same everywhere would hide misplaced blocks
        int differ = 0;
        for (long i = 0; i < 100; i++) {
            if (DataPattern.input(0, i, ReduceOp.SUM) != DataPattern.input(1, i, ReduceOp.SUM)) {
                differ++;
            }
        }
        assertTrue(differ > 50, "rank 0 and rank 1 differ at " + differ + " of 100 indices");
    }

    @Test
    void reducedValuesAreExactForEveryOpRankCountAndType() {
        for (ReduceOp op : ReduceOp.values()) {
            for (int n : RANKS) {
                for (DataType t : TYPES) {
                    for (long i = 0; i < 257; i++) {
                        long sum = 0;
                        long prod = 1;
                        long max = Long.MIN_VALUE;
                        long min = Long.MAX_VALUE;
                        for (int r = 0; r < n; r++) {
                            long v = DataPattern.input(r, i, op);
                            sum += v;
                            prod *= v;
                            max = Math.max(max, v);
                            min = Math.min(min, v);
                        }
                        long want;
                        switch (op) {
                            case SUM: case AVG: want = sum; break;
                            case PROD: want = wrap(prod, t); break;
                            case MAX: want = max; break;
                            case MIN: want = min; break;
                            default: throw new AssertionError(op);
                        }
                        String where = op + " n=" + n + " " + t.label() + " i=" + i;
                        assertEquals(want, DataPattern.reduced(i, op, n, t), where);
                        // exact in the element type: a float holds every value the pattern can reach
                        assertEquals((double) want, (double) (float) want, 0.0, where);
                    }
                }
            }
        }
    }

    private static long wrap(long v, DataType t) {
        switch (t) {
            case INT8: return (byte) v;
            case UINT8: return v & 0xFF;
            case INT32: return (int) v;
            case UINT32: return v & 0xFFFFFFFFL;
            default: return v;
        }
    }

    @Test
    void productsWrapInNarrowIntegerTypes() {
        // find an index where all 8 ranks contribute 2: 256 wraps to 0 in int8 and uint8
        for (long i = 0; i < 1_000_000; i++) {
            boolean allTwo = true;
            for (int r = 0; r < 8 && allTwo; r++) {
                allTwo = DataPattern.input(r, i, ReduceOp.PROD) == 2;
            }
            if (allTwo) {
                assertEquals(0, DataPattern.reduced(i, ReduceOp.PROD, 8, DataType.INT8));
                assertEquals(0, DataPattern.reduced(i, ReduceOp.PROD, 8, DataType.UINT8));
                assertEquals(256, DataPattern.reduced(i, ReduceOp.PROD, 8, DataType.INT32));
                assertEquals(256, DataPattern.reduced(i, ReduceOp.PROD, 8, DataType.FLOAT));
                return;
            }
        }
        throw new AssertionError("no index with all-2 inputs in 1e6: the prod pattern is not random enough");
    }

    @Test
    void averageTruncatesOnIntegersAndDividesOnFloats() {
        assertEquals(3.0, DataPattern.averageOf(10, 3, DataType.INT32), 0.0);
        assertEquals(3.0, DataPattern.averageOf(10, 3, DataType.INT64), 0.0);
        assertEquals(10.0 / 3, DataPattern.averageOf(10, 3, DataType.DOUBLE), 0.0);
        assertEquals(10.0 / 3, DataPattern.averageOf(10, 3, DataType.FLOAT), 0.0);
    }

    @Test
    void expectedFollowsTheCollectiveAndTheOp() {
        int n = 4;
        Collective ar = Collectives.byName("all_reduce");
        Counts c = Counts.same(100);
        for (long j = 0; j < 100; j++) {
            long sum = DataPattern.reduced(j, ReduceOp.SUM, n, DataType.FLOAT);
            assertEquals(sum, DataPattern.expected(ar, 1, j, c, n, -1, ReduceOp.SUM, DataType.FLOAT), 0.0);
            assertEquals((double) sum / n, DataPattern.expected(ar, 1, j, c, n, -1, ReduceOp.AVG, DataType.FLOAT), 0.0);
            assertEquals(sum / n, DataPattern.expected(ar, 1, j, c, n, -1, ReduceOp.AVG, DataType.INT32), 0.0);
        }
        Collective bc = Collectives.byName("broadcast");
        assertEquals(DataPattern.input(2, 5, ReduceOp.SUM), DataPattern.expected(bc, 0, 5, c, n, 2, ReduceOp.SUM,
                DataType.FLOAT), 0.0);
        assertTrue(Double.isNaN(DataPattern.expected(Collectives.byName("reduce"), 0, 5, c, n, 2, ReduceOp.SUM,
                DataType.FLOAT)), "non-root output of reduce is not checked");
    }

    @Test
    void matchesIsExactExceptAverageOnFloatingTypes() {
        for (DataType t : TYPES) {
            for (ReduceOp op : new ReduceOp[] {ReduceOp.SUM, ReduceOp.PROD, ReduceOp.MAX, ReduceOp.MIN}) {
                assertTrue(DataPattern.matches(12, 12, op, t));
                assertFalse(DataPattern.matches(12.000001, 12, op, t), op + " " + t);
                assertFalse(DataPattern.matches(Math.nextUp(12.0), 12, op, t), op + " " + t);
                assertFalse(DataPattern.matches(11, 12, op, t));
            }
        }
        // avg on integers: exact
        assertTrue(DataPattern.matches(3, 3, ReduceOp.AVG, DataType.INT32));
        assertFalse(DataPattern.matches(4, 3, ReduceOp.AVG, DataType.INT32));
        // avg on float: 2 ulps of float, not more
        double e = 10.0 / 3;
        float ef = (float) e;
        float ulp = Math.ulp(ef);
        assertTrue(DataPattern.matches(ef, e, ReduceOp.AVG, DataType.FLOAT));
        assertTrue(DataPattern.matches(e + 2 * ulp, e, ReduceOp.AVG, DataType.FLOAT));
        assertTrue(DataPattern.matches(e - 2 * ulp, e, ReduceOp.AVG, DataType.FLOAT));
        assertFalse(DataPattern.matches(e + 3 * ulp, e, ReduceOp.AVG, DataType.FLOAT));
        // avg on double: 2 ulps of double, so a float-rounded value is far off
        assertTrue(DataPattern.matches(e, e, ReduceOp.AVG, DataType.DOUBLE));
        assertTrue(DataPattern.matches(e + 2 * Math.ulp(e), e, ReduceOp.AVG, DataType.DOUBLE));
        assertFalse(DataPattern.matches(e + 3 * Math.ulp(e), e, ReduceOp.AVG, DataType.DOUBLE));
        assertFalse(DataPattern.matches(ef, e, ReduceOp.AVG, DataType.DOUBLE));
        // NaN expected means "not checked": anything matches
        assertTrue(DataPattern.matches(-123, Double.NaN, ReduceOp.SUM, DataType.FLOAT));
    }
}
