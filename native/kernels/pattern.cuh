// The data pattern of dev.ncclbench.collective.DataPattern, on the device. Keep these formulas
// textually in step with DataPattern.java (DataPatternTest checks the Java side; the GPU self-test
// compares the two on a GPU): inputs are small integers 1..8 (1..2 for prod), so sums, minima and
// maxima are exact in any order and every type compares bit for bit.
#pragma once
#include <stdint.h>

namespace ncclbench {

// ReduceOp ordinals, as in ReduceOp.java.
enum Op : int { SUM = 0, PROD = 1, MAX = 2, MIN = 3, AVG = 4 };

// splitmix64's finaliser: DataPattern.mix.
__host__ __device__ inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// DataPattern.input(rank, index, op).
__host__ __device__ inline int64_t input(int rank, int64_t index, int op) {
    uint64_t h = mix((uint64_t)index * 0x9E3779B97F4A7C15ULL + ((uint64_t)rank + 1ULL) * 0xC2B2AE3D27D4EB4FULL);
    if (op == PROD) {
        return 1 + (int64_t)(h & 1);
    }
    return 1 + (int64_t)(h & 7);
}

// DataPattern.reduced(index, op, nranks, type) before the wrap to the element type, which the
// conversion in store() does (integer types wrap, as the Java side does).
__host__ __device__ inline int64_t reduced(int64_t index, int op, int nranks) {
    int64_t acc = input(0, index, op);
    for (int r = 1; r < nranks; r++) {
        int64_t v = input(r, index, op);
        switch (op) {
            case SUM: case AVG: acc += v; break;
            case PROD: acc *= v; break;
            case MAX: acc = v > acc ? v : acc; break;
            case MIN: acc = v < acc ? v : acc; break;
        }
    }
    return acc;
}

}  // namespace ncclbench
