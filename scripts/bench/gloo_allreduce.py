"""PyTorch Gloo all_reduce peer for ncclbench's socket backend (scripts/bench/socket-vs-peers.sh).

float32 sum over a CPU tensor on the gloo backend (TCP), sizes min..max by a factor, then max itself if the
steps missed it. Before the first size a few all_reduces set up Gloo's pairs; per size 1 warm-up call, then
`iters` timed calls between a barrier and time.perf_counter(); each rank's mean is averaged over ranks
(nccl-tests -a 1). Prints the same columns as mpi_allreduce.c: size(B) count time(us) algbw busbw #wrong.
    python gloo_allreduce.py RANK WORLD HOST:PORT MINBYTES MAXBYTES FACTOR ITERS
Gloo's all_reduce is in place (the tensor is the output); the result is checked once after timing.
"""
import os
import sys
import time

import torch
import torch.distributed as dist


def main():
    rank, world = int(sys.argv[1]), int(sys.argv[2])
    host, port = sys.argv[3].rsplit(":", 1)
    minb, maxb, factor, iters = (int(a) for a in sys.argv[4:8])
    torch.set_num_threads(1)
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    dist.init_process_group("gloo", init_method=f"tcp://{host}:{port}", rank=rank, world_size=world)
    sizes = []
    b = minb
    while b <= maxb:
        sizes.append(b)
        b *= factor
    if sizes[-1] != maxb:
        sizes.append(maxb)
    warm = torch.ones(2, dtype=torch.float32)
    for _ in range(20):
        dist.all_reduce(warm)
    if rank == 0:
        print(f"# gloo_allreduce: torch {torch.__version__}, {world} ranks, float sum, 1 warm-up, {iters} iterations")
        print("# %12s %12s %10s %10s %10s %7s" % ("size(B)", "count", "time(us)", "algbw", "busbw", "#wrong"))
    status = 0
    for size in sizes:
        count = size // 4
        base = (torch.arange(count, dtype=torch.int64) + rank) % 7
        t = base.to(torch.float32)
        dist.all_reduce(t)  # warm-up
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(iters):
            dist.all_reduce(t)
        sec = torch.tensor([(time.perf_counter() - t0) / iters], dtype=torch.float64)
        # check: one more call on fresh inputs (small integers: exact in any order)
        t = base.to(torch.float32)
        dist.all_reduce(t)
        want = sum(((torch.arange(count, dtype=torch.int64) + r) % 7) for r in range(world)).to(torch.float32)
        wrong = torch.tensor([int((t != want).sum())], dtype=torch.int64)
        dist.all_reduce(sec)
        dist.all_reduce(wrong)
        if rank == 0:
            s = sec.item() / world
            algbw = size / 1e9 / s
            busbw = algbw * 2 * (world - 1) / world
            print("  %12d %12d %10.1f %10.3f %10.3f %7d" % (size, count, s * 1e6, algbw, busbw, wrong.item()), flush=True)
            if wrong.item():
                status = 4
    dist.destroy_process_group()
    sys.exit(status)


if __name__ == "__main__":
    main()
