package dev.ncclbench.collective;

/**
 * The input every rank writes and the output every rank must read back. Inputs are small integers,
 * so sums, minima and maxima are exact in any order and in every type (the property nccl-tests
 * relies on since v2.13 to compare bit for bit). Products use 1 and 2 only. Average divides the
 * exact sum by n, which may round: it is checked to 2 ulps on floating types, as nccl-tests does.
 *
 * <p>The same formulas are implemented by the CUDA init/verify kernels in native/; this class is
 * the reference they are tested against.
 */
public final class DataPattern {
    private DataPattern() {
    }

    /** Rank r's input element i, before conversion to the element type. */
    public static long input(int rank, long index, ReduceOp op) {
        long h = mix(index * 0x9E3779B97F4A7C15L + (rank + 1L) * 0xC2B2AE3D27D4EB4FL);
        if (op == ReduceOp.PROD) {
            return 1 + (h & 1);
        }
        return 1 + (h & 7);
    }

    /** The exact reduction over all ranks of input element i (AVG returns the sum; see {@link #averageOf}). */
    public static long reduced(long index, ReduceOp op, int nranks, DataType type) {
        long acc = input(0, index, op);
        for (int r = 1; r < nranks; r++) {
            long v = input(r, index, op);
            switch (op) {
                case SUM: case AVG: acc += v; break;
                case PROD: acc = wrap(acc * v, type); break;
                case MAX: acc = Math.max(acc, v); break;
                case MIN: acc = Math.min(acc, v); break;
                default: throw new IllegalStateException(op.toString());
            }
        }
        return op == ReduceOp.PROD ? acc : wrap(acc, type);
    }

    /** What AVG yields for a given exact sum: integer types truncate, floating types divide. */
    public static double averageOf(long sum, int nranks, DataType type) {
        return type.isInteger() ? (double) (sum / nranks) : (double) sum / nranks;
    }

    /** The expected value of an output element, given where {@link Collective#source} says it comes from. */
    public static double expected(Collective c, int rank, long j, Counts counts, int nranks, int root,
                                  ReduceOp op, DataType type) {
        long src = c.source(rank, j, counts, nranks, root, type.bytes());
        if (src == Collective.REDUCED) {
            long idx = c.reducedIndex(rank, j, counts, nranks);
            long r = reduced(idx, op, nranks, type);
            return op == ReduceOp.AVG ? averageOf(r, nranks, type) : r;
        }
        if (src == Collective.UNCHECKED) {
            return Double.NaN;
        }
        return input((int) (src >>> 32), src & 0xFFFFFFFFL, op);
    }

    /** Whether a value read back matches: exact, except AVG on floating types (2 ulps of the type). */
    public static boolean matches(double actual, double expected, ReduceOp op, DataType type) {
        if (Double.isNaN(expected)) {
            return true;
        }
        if (op != ReduceOp.AVG || type.isInteger()) {
            return actual == expected;
        }
        double ulp = type == DataType.DOUBLE ? Math.ulp(expected) : Math.ulp((float) expected);
        return Math.abs(actual - expected) <= 2 * ulp;
    }

    static long wrap(long v, DataType type) {
        switch (type) {
            case INT8: return (byte) v;
            case UINT8: return v & 0xFF;
            case INT32: return (int) v;
            case UINT32: return v & 0xFFFFFFFFL;
            default: return v;
        }
    }

    /** splitmix64's finaliser: cheap, and the same in C. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
