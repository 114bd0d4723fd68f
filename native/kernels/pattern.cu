// Init and verify kernels, one pair per element type, extern "C" so the driver API finds them by name
// (cuModuleGetFunction(&f, module, "ncclbench_fill_float")). Built into ncclbench_kernels.fatbin by
// native/CMakeLists.txt.
//
//   ncclbench_fill_<T>(T* buf, int64 count, int rank, int64 firstIndex, int op)
//       buf[i] = input(rank, firstIndex + i, op)
//   ncclbench_poison_<T>(T* buf, int64 count)
//       buf[i] = a value no pattern produces (-1), so an untouched output is counted wrong
//   ncclbench_verify_copy_<T>(const T* buf, int64 count, int srcRank, int64 firstIndex, int op,
//                             unsigned long long* wrong)
//       counts i where buf[i] != input(srcRank, firstIndex + i, op)   (gather-like outputs, one segment)
//   ncclbench_verify_reduced_<T>(const T* buf, int64 count, int64 firstIndex, int op, int nranks,
//                                unsigned long long* wrong)
//       counts i where buf[i] != reduced(firstIndex + i, op, nranks) (avg: within 2 ulps on floats)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>

#include "pattern.cuh"

using namespace ncclbench;

template <typename T> __device__ inline T store(int64_t v) { return (T)v; }
template <> __device__ inline __half store<__half>(int64_t v) { return __double2half((double)v); }
template <> __device__ inline __nv_bfloat16 store<__nv_bfloat16>(int64_t v) { return __double2bfloat16((double)v); }

template <typename T> __device__ inline double load(T v) { return (double)v; }
template <> __device__ inline double load<__half>(__half v) { return (double)__half2float(v); }
template <> __device__ inline double load<__nv_bfloat16>(__nv_bfloat16 v) { return (double)__bfloat162float(v); }

template <typename T> __device__ inline bool isInteger() { return true; }
template <> __device__ inline bool isInteger<float>() { return false; }
template <> __device__ inline bool isInteger<double>() { return false; }
template <> __device__ inline bool isInteger<__half>() { return false; }
template <> __device__ inline bool isInteger<__nv_bfloat16>() { return false; }

// The unit in the last place of x in T's precision (Math.ulp for normal numbers), for avg on floating types.
template <typename T> __device__ inline int mantissaBits() { return 0; }
template <> __device__ inline int mantissaBits<float>() { return 24; }
template <> __device__ inline int mantissaBits<double>() { return 53; }
template <> __device__ inline int mantissaBits<__half>() { return 11; }
template <> __device__ inline int mantissaBits<__nv_bfloat16>() { return 8; }
template <typename T> __device__ inline double ulpOf(double x) {
    int e;
    frexp(fabs(x), &e);
    return ldexp(1.0, e - mantissaBits<T>());
}

template <typename T>
__device__ inline double expectedReduced(int64_t index, int op, int nranks) {
    int64_t r = reduced(index, op, nranks);
    T wrapped = store<T>(r);  // integer types wrap as DataPattern.wrap does
    if (op != AVG) {
        return load<T>(wrapped);
    }
    // DataPattern.averageOf: integer types truncate, floating types divide.
    return isInteger<T>() ? (double)(r / nranks) : (double)r / nranks;
}

#define GRID_STRIDE(i, n) for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n); i += (int64_t)blockDim.x * gridDim.x)

template <typename T>
__device__ void fill(T *buf, int64_t count, int rank, int64_t first, int op) {
    GRID_STRIDE(i, count) { buf[i] = store<T>(input(rank, first + i, op)); }
}

template <typename T>
__device__ void poison(T *buf, int64_t count) {
    GRID_STRIDE(i, count) { buf[i] = store<T>(-1); }
}

template <typename T>
__device__ void verifyCopy(const T *buf, int64_t count, int src, int64_t first, int op, unsigned long long *wrong) {
    unsigned long long bad = 0;
    GRID_STRIDE(i, count) {
        T want = store<T>(input(src, first + i, op));
        if (load<T>(buf[i]) != load<T>(want)) bad++;
    }
    if (bad) atomicAdd(wrong, bad);
}

template <typename T>
__device__ void verifyReduced(const T *buf, int64_t count, int64_t first, int op, int nranks, unsigned long long *wrong) {
    unsigned long long bad = 0;
    GRID_STRIDE(i, count) {
        double want = expectedReduced<T>(first + i, op, nranks);
        double got = load<T>(buf[i]);
        bool ok = (op == AVG && !isInteger<T>()) ? fabs(got - want) <= 2 * ulpOf<T>(want) : got == want;
        if (!ok) bad++;
    }
    if (bad) atomicAdd(wrong, bad);
}

#define KERNELS(NAME, T)                                                                                         \
    extern "C" __global__ void ncclbench_fill_##NAME(T *b, int64_t n, int rank, int64_t first, int op) {        \
        fill<T>(b, n, rank, first, op);                                                                          \
    }                                                                                                            \
    extern "C" __global__ void ncclbench_poison_##NAME(T *b, int64_t n) { poison<T>(b, n); }                    \
    extern "C" __global__ void ncclbench_verify_copy_##NAME(const T *b, int64_t n, int src, int64_t first,     \
                                                            int op, unsigned long long *wrong) {                 \
        verifyCopy<T>(b, n, src, first, op, wrong);                                                              \
    }                                                                                                            \
    extern "C" __global__ void ncclbench_verify_reduced_##NAME(const T *b, int64_t n, int64_t first, int op,   \
                                                               int nranks, unsigned long long *wrong) {          \
        verifyReduced<T>(b, n, first, op, nranks, wrong);                                                        \
    }

KERNELS(int8, int8_t)
KERNELS(uint8, uint8_t)
KERNELS(int32, int32_t)
KERNELS(uint32, uint32_t)
KERNELS(int64, int64_t)
KERNELS(uint64, uint64_t)
KERNELS(half, __half)
KERNELS(float, float)
KERNELS(double, double)
KERNELS(bfloat16, __nv_bfloat16)
