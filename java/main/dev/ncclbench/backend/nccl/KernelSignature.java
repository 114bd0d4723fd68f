package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.DataType;

import java.util.List;
import java.util.Optional;

/**
 * The kernels of native/kernels/pattern.cu as the driver API sees them: an extern "C" name per element
 * type and the parameters, in order, that cuLaunchKernel's kernelParams must point to. Plain Java, so
 * KernelSignatureTest can hold it against the .cu source on a machine without a GPU: a parameter added
 * on one side only would be read from the wrong address on the device.
 */
enum KernelSignature {
    /** ncclbench_fill_T(T* buf, int64 count, int rank, int64 firstIndex, int op) */
    FILL("fill", Param.POINTER, Param.INT64, Param.INT32, Param.INT64, Param.INT32),
    /** ncclbench_poison_T(T* buf, int64 count) */
    POISON("poison", Param.POINTER, Param.INT64),
    /** ncclbench_verify_copy_T(const T* buf, int64 count, int srcRank, int64 firstIndex, int op, u64* wrong) */
    VERIFY_COPY("verify_copy", Param.POINTER, Param.INT64, Param.INT32, Param.INT64, Param.INT32, Param.POINTER),
    /** ncclbench_verify_reduced_T(const T* buf, int64 count, int64 firstIndex, int op, int nranks, u64* wrong) */
    VERIFY_REDUCED("verify_reduced", Param.POINTER, Param.INT64, Param.INT64, Param.INT32, Param.INT32, Param.POINTER);

    /** How a parameter is passed: its size in the kernel's parameter buffer. */
    enum Param {
        POINTER(8), INT64(8), INT32(4);

        final int bytes;

        Param(int bytes) {
            this.bytes = bytes;
        }
    }

    final String stem;
    final List<Param> params;

    KernelSignature(String stem, Param... params) {
        this.stem = stem;
        this.params = List.of(params);
    }

    /** The kernels' type suffix (the KERNELS(NAME, T) lines of pattern.cu), or empty when there is none (fp8). */
    static Optional<String> suffix(DataType t) {
        switch (t) {
            case F8E4M3: case F8E5M2: return Optional.empty();
            default: return Optional.of(t.label());
        }
    }

    /** Checks values against this kernel's parameters (Long for pointers and int64, Integer for int). */
    Object[] bind(Object... values) {
        if (values.length != params.size()) {
            throw new IllegalArgumentException(this + " takes " + params.size() + " parameters, not " + values.length);
        }
        for (int i = 0; i < values.length; i++) {
            Class<?> want = params.get(i) == Param.INT32 ? Integer.class : Long.class;
            if (!want.isInstance(values[i])) {
                throw new IllegalArgumentException(this + " parameter " + i + " must be " + want.getSimpleName());
            }
        }
        return values;
    }

    // One typed builder per kernel, parameter for parameter the .cu signature (KernelSignatureTest checks both).

    static Object[] fill(long buf, long count, int rank, long firstIndex, int op) {
        return FILL.bind(buf, count, rank, firstIndex, op);
    }

    static Object[] poison(long buf, long count) {
        return POISON.bind(buf, count);
    }

    static Object[] verifyCopy(long buf, long count, int srcRank, long firstIndex, int op, long wrong) {
        return VERIFY_COPY.bind(buf, count, srcRank, firstIndex, op, wrong);
    }

    static Object[] verifyReduced(long buf, long count, long firstIndex, int op, int nranks, long wrong) {
        return VERIFY_REDUCED.bind(buf, count, firstIndex, op, nranks, wrong);
    }

    /** "ncclbench_fill_float". */
    String function(DataType t) {
        return "ncclbench_" + stem + "_" + suffix(t).orElseThrow(() -> new IllegalArgumentException("no kernels for " + t.label()));
    }
}
