package dev.ncclbench.rendezvous;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The control plane at scale: {@code n} simulated ranks, threads of one JVM, each with its own {@link StoreClient}
 * speaking the real protocol over a real loopback socket to the real {@link StoreServer}, with no data plane. Each
 * does what a sweep's rank does with the store: the rendezvous (connect with the token and its flags, the rank list
 * gathered at rank 0, the run folder broadcast, a barrier), then per size and placement the start barrier and the
 * results gathered at rank 0 (16 + 8 x iters bytes, as SweepEngine#combine sends). Bytes and messages are the
 * store's own counts ({@link StoreServer#traffic}).
 *
 * <p>Run: scripts/bench/control-plane.sh [RANKS...]; in the suite at 1024 ranks (ControlPlaneScaleTest).
 */
public final class ControlPlaneScale {
    /** A sweep's flags as MeasuredFlags writes them: about what every rank presents. */
    static final String FLAGS = String.join("\n", "--collective all_reduce", "-b 8", "-e 4194304", "-f 2", "-i 0", "-n 20",
            "-w 1", "-m 1", "-N 1", "-c 1", "-o sum", "-d float", "-r 0", "-a 1", "-z 0", "-g 1", "-t 1", "-G 0", "-I 0",
            "--backend socket", "--ranks 1", "--sockets-per-peer 1", "--socket-algo auto", "--socket-chunk 0");
    private static final byte[] TOKEN = "control-plane-sc".getBytes(StandardCharsets.US_ASCII);
    /** Thread stacks: a simulated rank needs little, and 8192 of them share one JVM. */
    private static final long STACK_BYTES = 256 << 10;

    /**
     * @param rendezvousMs   from the first thread's start to rank 0 past the rendezvous barrier
     * @param sizeMs         per size (both placements), as rank 0 sees it, in order
     * @param bytesToRank0   per size: what the store sent rank 0
     * @param bytesOut       per size: what the store sent every rank together
     * @param bytesIn        per size: what every rank sent the store together
     * @param messages       per size: requests in plus answers out
     * @param payload        the results payload of one rank (bytes)
     * @param storeCpuMs     per size: the store thread's own CPU time, what a job whose ranks are elsewhere waits on
     */
    record Result(int n, double rendezvousMs, double[] sizeMs, double bytesToRank0, double bytesOut, double bytesIn,
                  double messages, int payload, double storeCpuMs) {
        double medianSizeMs() {
            double[] s = sizeMs.clone();
            Arrays.sort(s);
            return s[s.length / 2];
        }

        double maxSizeMs() {
            return Arrays.stream(sizeMs).max().orElse(0);
        }

        /** What the store sent each other rank a size, on average. */
        double bytesPerOtherRank() {
            return (bytesOut - bytesToRank0) / Math.max(1, n - 1);
        }
    }

    private ControlPlaneScale() {
    }

    static Result run(int n, int sizes, int iters, long timeoutMillis) throws Exception {
        int payload = 8 * (2 + iters);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, timeoutMillis)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            long[] sizeEnd = new long[sizes];
            long[] rendezvousEnd = new long[1];
            long[][] traffic = new long[2][];
            long[] storeCpu = new long[2];
            java.util.concurrent.atomic.AtomicLong connected = new java.util.concurrent.atomic.AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>(n);
            long t0 = System.nanoTime();
            for (int r = 0; r < n; r++) {
                int rank = r;
                Thread t = new Thread(null, () -> {
                    try (StoreClient c = StoreClient.connect(at, TOKEN, rank, n, timeoutMillis, FLAGS)) {
                        connected.accumulateAndGet(System.nanoTime(), Math::max);
                        byte[] info = ("{\"rank\":" + rank + ",\"local_rank\":0,\"host\":\"node" + rank / 8
                                + "\",\"pid\":12345,\"device\":\"eth0:10.0.0." + rank % 250 + "\"}").getBytes(StandardCharsets.UTF_8);
                        c.gather("rankinfo", info, 0);
                        c.broadcast("run-folder", "20261202-120000-socket-12345".getBytes(StandardCharsets.UTF_8), 0);
                        c.barrier("ready");
                        if (rank == 0) {
                            rendezvousEnd[0] = System.nanoTime();
                            traffic[0] = server.traffic().snapshot();
                            storeCpu[0] = storeCpuNanos();
                        }
                        byte[] mine = new byte[payload];
                        for (int s = 0; s < sizes; s++) {
                            for (String placement : new String[] {"out-of-place", "in-place"}) {
                                String tag = "#" + s + " all_reduce " + (8L << s) + " B " + placement;
                                c.barrier(tag + ": start");
                                c.gather(tag + ": results", mine, 0);
                            }
                            if (rank == 0) {
                                sizeEnd[s] = System.nanoTime();
                            }
                        }
                        c.barrier("done");
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "rank" + r, STACK_BYTES);
                threads.add(t);
                t.start();
            }
            long started = System.nanoTime();
            for (Thread t : threads) {
                t.join();
            }
            if (Boolean.getBoolean("phases")) {
                System.out.printf(Locale.ROOT, "# %d ranks: threads started %.2f s, all connected %.2f s%n", n,
                        (started - t0) / 1e9, (connected.get() - t0) / 1e9);
            }
            if (failure.get() != null) {
                throw new IllegalStateException("a simulated rank failed: " + failure.get(), failure.get());
            }
            traffic[1] = server.traffic().snapshot();
            storeCpu[1] = storeCpuNanos();
            double[] sizeMs = new double[sizes];
            long last = rendezvousEnd[0];
            for (int s = 0; s < sizes; s++) {
                sizeMs[s] = (sizeEnd[s] - last) / 1e6;
                last = sizeEnd[s];
            }
            // the traffic of the sizes: from the rendezvous to the end, less the final barrier's 2N messages
            long[] a = traffic[0];
            long[] b = traffic[1];
            return new Result(n, (rendezvousEnd[0] - t0) / 1e6, sizeMs, (b[2] - a[2]) / (double) sizes,
                    (b[1] - a[1]) / (double) sizes, (b[0] - a[0]) / (double) sizes, (b[3] - a[3] + b[4] - a[4]) / (double) sizes,
                    payload, (storeCpu[1] - storeCpu[0]) / 1e6 / sizes);
        }
    }

    /** The CPU time of the store's thread so far (ns), -1 where the JVM does not measure it. */
    static long storeCpuNanos() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (java.lang.management.ThreadInfo t : mx.dumpAllThreads(false, false)) {
            if (t.getThreadName().equals("ncclbench-store")) {
                return mx.getThreadCpuTime(t.getThreadId());
            }
        }
        return -1;
    }

    /** The exponent k of y ~ N^k, least squares on logarithms. */
    static double growth(List<Result> results, java.util.function.ToDoubleFunction<Result> y) {
        int m = results.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (Result r : results) {
            double x = Math.log(r.n());
            double v = Math.log(Math.max(1e-9, y.applyAsDouble(r)));
            sx += x;
            sy += v;
            sxx += x * x;
            sxy += x * v;
        }
        return (m * sxy - sx * sy) / (m * sxx - sx * sx);
    }

    public static void main(String[] args) throws Exception {
        List<Integer> ranks = new ArrayList<>();
        for (String a : args) {
            ranks.add(Integer.parseInt(a));
        }
        if (ranks.isEmpty()) {
            ranks = List.of(64, 512, 2048, 8192);
        }
        int sizes = Integer.getInteger("sizes", 20);
        int iters = Integer.getInteger("iters", 20);
        System.out.printf(Locale.ROOT, "# control plane at scale: simulated ranks as threads, real store over loopback,"
                + " %d sizes x 2 placements, %d-iteration results (%d B a rank); %d cores%n", sizes, iters, 8 * (2 + iters),
                Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%7s %13s %14s %14s %15s %16s %16s %14s %12s%n", "ranks", "rendezvous_s",
                "size_ms_median", "size_ms_max", "store_cpu_ms/sz", "B_to_rank0/size", "B_out_all/size", "B_other/size",
                "msgs/size");
        List<Result> results = new ArrayList<>();
        for (int n : ranks) {
            Result r = run(n, sizes, iters, 120_000);
            results.add(r);
            System.out.printf(Locale.ROOT, "%7d %13.2f %14.1f %14.1f %15.1f %16.0f %16.0f %14.1f %12.0f%n", n,
                    r.rendezvousMs() / 1e3, r.medianSizeMs(), r.maxSizeMs(), r.storeCpuMs(), r.bytesToRank0(), r.bytesOut(),
                    r.bytesPerOtherRank(), r.messages());
            System.gc();
        }
        if (results.size() >= 2) {
            System.out.printf(Locale.ROOT, "# growth with N (exponent k of N^k, least squares): rendezvous %.2f, per-size"
                            + " control %.2f, bytes to rank 0 %.2f, bytes out in all %.2f, bytes to each other rank %.2f%n",
                    growth(results, Result::rendezvousMs), growth(results, Result::medianSizeMs),
                    growth(results, Result::bytesToRank0), growth(results, Result::bytesOut),
                    growth(results, Result::bytesPerOtherRank));
            Result big = results.get(results.size() - 1);
            System.out.printf(Locale.ROOT, "# at %d ranks: bytes to rank 0 a size / (N x payload) = %.2f (2 placements:"
                    + " about 2 is O(N); N^2 would be about %d)%n", big.n(), big.bytesToRank0() / ((double) big.n() * big.payload()),
                    2 * big.n());
        }
    }
}
