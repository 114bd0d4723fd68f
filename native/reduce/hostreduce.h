/*
 * Element-wise reductions for the socket backend: dst[i] = a[i] op b[i] over host memory.
 *
 * Java 17's compiler does not vectorise loops over direct buffers, so the Java reduction stages blocks through heap
 * arrays: three copies and a loop per block. Here it is one pass, vectorised (AVX2 where the CPU has it, chosen at
 * load time). dst may be a or b (in place, or a piece received into the result); no other overlap.
 *
 * Results are bit for bit Java's: float and double sums and products are single IEEE operations (no contraction,
 * no reassociation); integer sums and products wrap as Java's do. Float and double max/min are not done here
 * (Java's Math.max orders NaN and -0.0 in its own way): those return -1 and the caller reduces in Java.
 */
#ifndef NCCLBENCH_HOSTREDUCE_H
#define NCCLBENCH_HOSTREDUCE_H

#ifdef __cplusplus
extern "C" {
#endif

#define NCCLBENCH_HOSTREDUCE_API 1

/* types */
#define NCCLBENCH_FLOAT 0
#define NCCLBENCH_DOUBLE 1
#define NCCLBENCH_INT32 2
#define NCCLBENCH_INT64 3
/* ops */
#define NCCLBENCH_SUM 0
#define NCCLBENCH_PROD 1
#define NCCLBENCH_MAX 2
#define NCCLBENCH_MIN 3

int ncclbench_hostreduce_api_version(void);

/* Whether the vectorised loops run with AVX2 on this CPU (1) or with the baseline instructions (0). */
int ncclbench_hostreduce_avx2(void);

/*
 * dst + dstOff, a + aOff, b + bOff are byte addresses of count elements of the type. Returns 0, or -1 for a type
 * and op this library leaves to the caller.
 */
int ncclbench_hostreduce(int type, int op, char *dst, long long dstOff, const char *a, long long aOff,
                         const char *b, long long bOff, long long count);

#ifdef __cplusplus
}
#endif
#endif
