/*
 * MPI_Allreduce peer for ncclbench's socket backend (scripts/bench/socket-vs-mpi.sh).
 * float sum, sizes min..max by a factor (default 64M..256M, x2), 1 warm-up, 5 timed iterations.
 * Time: MPI_Barrier, then MPI_Wtime around the timed loop; each rank's time is averaged over ranks
 * (nccl-tests -a 1). algbw = bytes / 1e9 / s; busbw = algbw * 2(n-1)/n, as nccl-tests all_reduce.
 * Out of place, like the first half of the nccl-tests table; the result is checked once after timing.
 *   mpi_allreduce [minbytes [maxbytes [factor [iters]]]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    long long minb = argc > 1 ? atoll(argv[1]) : 64LL << 20;
    long long maxb = argc > 2 ? atoll(argv[2]) : 256LL << 20;
    int factor = argc > 3 ? atoi(argv[3]) : 2;
    int iters = argc > 4 ? atoi(argv[4]) : 5;
    if (minb < 4 || maxb < minb || factor < 2 || iters < 1) {
        if (rank == 0) fprintf(stderr, "usage: mpi_allreduce [minbytes [maxbytes [factor>=2 [iters>=1]]]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    size_t maxcount = (size_t)(maxb / 4);
    float *sendbuf = malloc(maxcount * sizeof(float));
    float *recvbuf = malloc(maxcount * sizeof(float));
    if (!sendbuf || !recvbuf) {
        fprintf(stderr, "rank %d: out of memory for %lld bytes\n", rank, maxb);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (rank == 0) {
        printf("# mpi_allreduce: %d ranks, float sum, %d warm-up, %d iterations, out of place\n", n, 1, iters);
        printf("# %12s %12s %10s %10s %10s %7s\n", "size(B)", "count", "time(us)", "algbw", "busbw", "#wrong");
    }
    int status = 0;
    for (long long bytes = minb; bytes <= maxb; bytes *= factor) {
        size_t count = (size_t)(bytes / 4);
        /* small integers: the sum is exact in float in any order */
        for (size_t i = 0; i < count; i++) {
            sendbuf[i] = (float)((rank + i) % 7);
            recvbuf[i] = -1.0f;
        }
        MPI_Allreduce(sendbuf, recvbuf, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); /* warm-up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int it = 0; it < iters; it++) {
            MPI_Allreduce(sendbuf, recvbuf, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        }
        double sec = (MPI_Wtime() - t0) / iters;
        long long wrong = 0;
        for (size_t i = 0; i < count; i++) {
            double want = 0;
            for (int r = 0; r < n; r++) want += (double)((r + i) % 7);
            if (recvbuf[i] != (float)want) wrong++;
        }
        double sum;
        long long allwrong;
        MPI_Reduce(&sec, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&wrong, &allwrong, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            double s = sum / n;
            double algbw = (double)bytes / 1e9 / s;
            double busbw = algbw * 2.0 * (n - 1) / n;
            printf("  %12lld %12zu %10.1f %10.3f %10.3f %7lld\n", bytes, count, s * 1e6, algbw, busbw, allwrong);
            if (allwrong) status = 4;
        }
        if (bytes > maxb / factor) break;
    }
    fflush(stdout);
    free(sendbuf);
    free(recvbuf);
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
