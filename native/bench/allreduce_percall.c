/*
 * allreduce_percall: what one ncclAllReduce costs when called from C, the peer of the JMH benchmark
 * NcclAllReduceBench (the same call through JavaCPP). One process, one GPU, one rank (ncclCommInitAll),
 * 8 bytes of float: the call is all launch cost, nothing of the data.
 *
 *   allreduce_percall LIBNCCL LIBCUDART [CALLS]
 *
 * Prints two lines, in microseconds per call:
 *   enqueue  CALLS back-to-back calls, then one stream synchronize, divided by CALLS (what the timed loop
 *            of nccl-tests and of ncclbench pays per call with -z 0)
 *   enqueue_inplace  as enqueue with send == recv: on one rank NCCL does no GPU work for it (out of place
 *            it is a cudaMemcpyAsync, whose own host cost hides the call path's), so this is the call path alone
 *   latency  call + cudaStreamSynchronize, each time (one op's latency; -z 2)
 * The stream is non-blocking (cudaStreamNonBlocking), as nccl-tests' and ncclbench's.
 * Both libraries are dlopen()ed (no CUDA or NCCL headers needed to build it: gcc -O2 ... -ldl), so the
 * bundle builds it on a machine without CUDA. Exit codes: 0 ok, 2 usage, 3 a library or symbol missing,
 * 4 a CUDA or NCCL call failed.
 */
#define _POSIX_C_SOURCE 199309L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void *comm_t;
typedef void *stream_t;
typedef int (*init_all_f)(comm_t *, int, const int *);
typedef int (*all_reduce_f)(const void *, void *, size_t, int, int, comm_t, stream_t);
typedef int (*destroy_f)(comm_t);
typedef int (*set_device_f)(int);
typedef int (*malloc_f)(void **, size_t);
typedef int (*stream_create_f)(stream_t *, unsigned int);
typedef int (*stream_sync_f)(stream_t);

/* nccl.h: ncclFloat32 = 7, ncclSum = 0 */
#define NCCL_FLOAT32 7
#define NCCL_SUM 0
/* cuda_runtime_api.h: cudaStreamNonBlocking = 0x01 */
#define CUDA_STREAM_NON_BLOCKING 0x01

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) {
        fprintf(stderr, "allreduce_percall: %s not found: %s\n", name, dlerror());
        exit(3);
    }
    return p;
}

#define CHECK(call, what)                                                        \
    do {                                                                         \
        int rc_ = (call);                                                        \
        if (rc_ != 0) {                                                          \
            fprintf(stderr, "allreduce_percall: %s failed: %d\n", what, rc_);    \
            return 4;                                                            \
        }                                                                        \
    } while (0)

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: allreduce_percall LIBNCCL LIBCUDART [CALLS]\n");
        return 2;
    }
    long calls = argc > 3 ? atol(argv[3]) : 100000;
    if (calls < 1) {
        fprintf(stderr, "allreduce_percall: CALLS must be at least 1, not %s\n", argv[3]);
        return 2;
    }
    void *cudart = dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL);
    void *nccl = cudart ? dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) : NULL;
    if (!cudart || !nccl) {
        fprintf(stderr, "allreduce_percall: cannot load %s: %s\n", cudart ? argv[1] : argv[2], dlerror());
        return 3;
    }
    init_all_f init_all = (init_all_f)sym(nccl, "ncclCommInitAll");
    all_reduce_f all_reduce = (all_reduce_f)sym(nccl, "ncclAllReduce");
    destroy_f destroy = (destroy_f)sym(nccl, "ncclCommDestroy");
    set_device_f set_device = (set_device_f)sym(cudart, "cudaSetDevice");
    malloc_f dmalloc = (malloc_f)sym(cudart, "cudaMalloc");
    stream_create_f stream_create = (stream_create_f)sym(cudart, "cudaStreamCreateWithFlags");
    stream_sync_f stream_sync = (stream_sync_f)sym(cudart, "cudaStreamSynchronize");

    int dev = 0;
    comm_t comm;
    stream_t s;
    void *send, *recv;
    if (set_device(0) != 0) {
        fprintf(stderr, "allreduce_percall: cudaSetDevice(0) failed: no usable GPU or driver here\n");
        return 3;
    }
    CHECK(dmalloc(&send, 8), "cudaMalloc");
    CHECK(dmalloc(&recv, 8), "cudaMalloc");
    CHECK(stream_create(&s, CUDA_STREAM_NON_BLOCKING), "cudaStreamCreateWithFlags");
    CHECK(init_all(&comm, 1, &dev), "ncclCommInitAll");
    for (int i = 0; i < 1000; i++) { /* warm-up */
        CHECK(all_reduce(send, recv, 2, NCCL_FLOAT32, NCCL_SUM, comm, s), "ncclAllReduce");
    }
    CHECK(stream_sync(s), "cudaStreamSynchronize");

    /* enqueue: sync every 1024 calls so the launch queue never fills (a full queue blocks the call) */
    double t0 = now_us();
    for (long i = 0; i < calls; i++) {
        CHECK(all_reduce(send, recv, 2, NCCL_FLOAT32, NCCL_SUM, comm, s), "ncclAllReduce");
        if ((i & 1023) == 1023) {
            CHECK(stream_sync(s), "cudaStreamSynchronize");
        }
    }
    CHECK(stream_sync(s), "cudaStreamSynchronize");
    double enqueue = (now_us() - t0) / calls;

    t0 = now_us();
    for (long i = 0; i < calls; i++) {
        CHECK(all_reduce(recv, recv, 2, NCCL_FLOAT32, NCCL_SUM, comm, s), "ncclAllReduce");
        if ((i & 1023) == 1023) {
            CHECK(stream_sync(s), "cudaStreamSynchronize");
        }
    }
    CHECK(stream_sync(s), "cudaStreamSynchronize");
    double inplace = (now_us() - t0) / calls;

    long lcalls = calls / 10 > 0 ? calls / 10 : 1;
    t0 = now_us();
    for (long i = 0; i < lcalls; i++) {
        CHECK(all_reduce(send, recv, 2, NCCL_FLOAT32, NCCL_SUM, comm, s), "ncclAllReduce");
        CHECK(stream_sync(s), "cudaStreamSynchronize");
    }
    double latency = (now_us() - t0) / lcalls;
    printf("enqueue %.3f us/call (%ld calls)\n", enqueue, calls);
    printf("enqueue_inplace %.3f us/call (%ld calls)\n", inplace, calls);
    printf("latency %.3f us/call (%ld calls)\n", latency, lcalls);
    destroy(comm);
    return 0;
}
