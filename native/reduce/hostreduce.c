/* See hostreduce.h. */
#include "hostreduce.h"

#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* one copy of each loop per instruction set, picked once by the dynamic loader (an ifunc) */
#define CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLONES
#endif

/*
 * Three loops per element kind and op: dst is a (dst op= b), dst is b (dst = a op dst), or all three apart. The
 * restrict qualifiers tell the compiler so: with two pointers that may be equal it would check for overlap at run
 * time and take its scalar loop whenever they are.
 */
#define LOOPS(NAME, T, EXPR)                                                                                    \
    static CLONES void NAME##_into_a(T *restrict d, const T *restrict b, long long n) {                         \
        for (long long i = 0; i < n; i++) { T x = d[i]; T y = b[i]; d[i] = (EXPR); }                            \
    }                                                                                                           \
    static CLONES void NAME##_into_b(T *restrict d, const T *restrict a, long long n) {                         \
        for (long long i = 0; i < n; i++) { T x = a[i]; T y = d[i]; d[i] = (EXPR); }                            \
    }                                                                                                           \
    static CLONES void NAME##_apart(T *restrict d, const T *restrict a, const T *restrict b, long long n) {     \
        for (long long i = 0; i < n; i++) { T x = a[i]; T y = b[i]; d[i] = (EXPR); }                            \
    }                                                                                                           \
    static void NAME(void *d, const void *a, const void *b, long long n) {                                      \
        if (d == a && d != b) {                                                                                 \
            NAME##_into_a((T *) d, (const T *) b, n);                                                           \
        } else if (d == b && d != a) {                                                                          \
            NAME##_into_b((T *) d, (const T *) a, n);                                                           \
        } else if (d != a) {                                                                                    \
            NAME##_apart((T *) d, (const T *) a, (const T *) b, n);                                             \
        } else {                                                                                                \
            T *p = (T *) d;                                                                                     \
            for (long long i = 0; i < n; i++) { T x = p[i]; T y = p[i]; p[i] = (EXPR); }                        \
        }                                                                                                       \
    }

LOOPS(sum_f32, float, x + y)
LOOPS(prod_f32, float, x * y)
LOOPS(sum_f64, double, x + y)
LOOPS(prod_f64, double, x * y)
/* unsigned: wraps on overflow as Java's int and long do (signed overflow is undefined in C) */
LOOPS(sum_i32, uint32_t, x + y)
LOOPS(prod_i32, uint32_t, x * y)
LOOPS(max_i32, int32_t, x > y ? x : y)
LOOPS(min_i32, int32_t, x < y ? x : y)
LOOPS(sum_i64, uint64_t, x + y)
LOOPS(prod_i64, uint64_t, x * y)
LOOPS(max_i64, int64_t, x > y ? x : y)
LOOPS(min_i64, int64_t, x < y ? x : y)

int ncclbench_hostreduce_api_version(void) {
    return NCCLBENCH_HOSTREDUCE_API;
}

int ncclbench_hostreduce_avx2(void) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

int ncclbench_hostreduce(int type, int op, char *dst, long long dstOff, const char *a, long long aOff,
                         const char *b, long long bOff, long long count) {
    void (*f)(void *, const void *, const void *, long long) = 0;
    if (type < 0 || type > 3 || op < 0 || op > 3) {
        return -1;
    }
    switch (type * 4 + op) {
    case NCCLBENCH_FLOAT * 4 + NCCLBENCH_SUM: f = sum_f32; break;
    case NCCLBENCH_FLOAT * 4 + NCCLBENCH_PROD: f = prod_f32; break;
    case NCCLBENCH_DOUBLE * 4 + NCCLBENCH_SUM: f = sum_f64; break;
    case NCCLBENCH_DOUBLE * 4 + NCCLBENCH_PROD: f = prod_f64; break;
    case NCCLBENCH_INT32 * 4 + NCCLBENCH_SUM: f = sum_i32; break;
    case NCCLBENCH_INT32 * 4 + NCCLBENCH_PROD: f = prod_i32; break;
    case NCCLBENCH_INT32 * 4 + NCCLBENCH_MAX: f = max_i32; break;
    case NCCLBENCH_INT32 * 4 + NCCLBENCH_MIN: f = min_i32; break;
    case NCCLBENCH_INT64 * 4 + NCCLBENCH_SUM: f = sum_i64; break;
    case NCCLBENCH_INT64 * 4 + NCCLBENCH_PROD: f = prod_i64; break;
    case NCCLBENCH_INT64 * 4 + NCCLBENCH_MAX: f = max_i64; break;
    case NCCLBENCH_INT64 * 4 + NCCLBENCH_MIN: f = min_i64; break;
    default: return -1;
    }
    f(dst + dstOff, a + aOff, b + bOff, count);
    return 0;
}
