package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.spec.Defaults;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Numeric flags with bounds: picocli converts and checks them, so a value out of range is its one usage line
 * ("Invalid value for option '-n' (N): must be 1 or more, got 0") and exit 2, like a value that is not a number.
 */
final class Ranges {
    private Ranges() {
    }

    static int integer(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is not an int");
        }
    }

    static int atLeast(String text, int min) {
        int v = integer(text);
        if (v < min) {
            throw new TypeConversionException("must be " + min + " or more, got " + v);
        }
        return v;
    }

    static int within(String text, int min, int max, String what) {
        int v = integer(text);
        if (v < min || v > max) {
            throw new TypeConversionException("must be " + what + ", got " + v);
        }
        return v;
    }

    /** 1 or more: iterations, cycles, GPUs, threads, seconds of a round. */
    static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(value, 1);
        }
    }

    /** 0 or more: warm-up and check iterations, -T (0 = the watchdog), -G. */
    static final class NonNegative implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(value, 0);
        }
    }

    /** 2 or more: fleet's group size. */
    static final class AtLeastTwo implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeast(value, 2);
        }
    }

    /** nccl-tests' -R and -x: 0, 1 or 2. */
    static final class Register implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return within(value, 0, 2, "0, 1 or 2");
        }
    }

    /** -r: a rank, or -1 (or "all") for every root. */
    static final class RootRank implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            if (value.trim().equalsIgnoreCase("all")) {
                return -1;
            }
            int v = integer(value);
            if (v < -1) {
                throw new TypeConversionException("must be a rank or -1 (every root), got " + v);
            }
            return v;
        }
    }

    /** -a: 0 rank 0, 1 mean, 2 min, 3 max. */
    static final class Average implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return within(value, 0, 3, "0 (rank 0), 1 (mean), 2 (min) or 3 (max)");
        }
    }

    /** -z: nccl-tests' blocking modes 0 to 3. */
    static final class Blocking implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return within(value, 0, 3, "0, 1, 2 or 3");
        }
    }

    /** -I: 0 or 1. */
    static final class Switch implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return within(value, 0, 1, "0 or 1");
        }
    }

    /** -f: 1 or more (1 steps by -i). nccl-tests reads 0 and negative values as 1: a typo there, refused here. */
    static final class StepFactor implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v;
            try {
                v = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a long");
            }
            if (v < 1) {
                throw new TypeConversionException("must be 1 or more, got " + v + ": -f 2 (or more) multiplies each size"
                        + " by it, -f 1 adds -i to it");
            }
            return v;
        }
    }

    /** --ranks: each local rank is a thread with buffers and connections to every other, so at most a few dozen. */
    static final class LocalRanks implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int v = atLeast(value, 1);
            if (v > Defaults.MAX_LOCAL_RANKS) {
                throw new TypeConversionException(v + " is more than " + Defaults.MAX_LOCAL_RANKS
                        + " local ranks: each is a thread with its own buffers and connections to every other rank;"
                        + " run more processes instead (mpirun -np N, torchrun --nproc_per_node N)");
            }
            return v;
        }
    }

    /** --sockets-per-peer: 1 to {@link Defaults#MAX_SOCKETS_PER_PEER}. */
    static final class SocketsPerPeer implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return within(value, 1, Defaults.MAX_SOCKETS_PER_PEER, "1 to " + Defaults.MAX_SOCKETS_PER_PEER);
        }
    }

    /** --socket-chunk: a size, a multiple of 8 from 4K to 64M. */
    static final class SocketChunk implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v = new SizeConverter().convert(value);
            if (v < (4 << 10) || v > (64 << 20) || v % 8 != 0) {
                throw new TypeConversionException("must be a multiple of 8 from 4K to 64M, got " + value);
            }
            return v;
        }
    }

    /** A fraction strictly between 0 and 1 (fleet's --margin). */
    static final class Fraction implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double v = real(value);
            if (!(v > 0 && v < 1)) {
                throw new TypeConversionException("must be between 0 and 1 (a fraction of the best results), got " + v);
            }
            return v;
        }
    }

    /** The gate's --alpha: above 0 and under 0.5 (a one-sided test). */
    static final class Alpha implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double v = real(value);
            if (!(v > 0 && v < 0.5)) {
                throw new TypeConversionException("must be above 0 and under 0.5, got " + value);
            }
            return v;
        }
    }

    /** The gate's --tolerance: a percentage, 0 to under 1000 (5 or 7.5%), kept as a fraction. */
    static final class Percent implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                return GateOptions.percent("--tolerance", value);
            } catch (NcclbenchException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    private static double real(String text) {
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' is not a number");
        }
    }
}
