package dev.ncclbench.rendezvous;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The control plane at scale: {@code n} simulated ranks, threads of one JVM, each with its own {@link StoreClient}
 * speaking the real protocol over real loopback sockets to the real {@link StoreServer}, with no data plane. The ranks
 * come as simulated processes of {@code perProcess} ranks each (8: a node of 8 GPUs, as a job of 1024 nodes runs), the
 * ranks of a process sharing one connection as {@link Rendezvous} makes them; 1 is a job of one rank a process. Each
 * does what a sweep's rank does with the store: the rendezvous (connect with the token and its flags, the rank list
 * gathered at rank 0, the run folder broadcast, the socket backend's address lookup of its ring neighbours and
 * recursive-doubling partners, a barrier), then per size and placement the start barrier, which carries the previous
 * placement's results to rank 0 (16 + 8 x iters bytes, as sweep's ResultRelay sends them), and the last results alone.
 * Bytes and messages are the store's own counts ({@link StoreServer#traffic}).
 *
 * <p>The simulated ranks' threads are created first (by 32 threads at once, with small stacks) and wait; the
 * rendezvous is timed from their release, as a job's ranks start about together: the threads' creation is reported
 * apart ({@link Result#startMs}), a cost of simulating ranks in one JVM that a job of processes does not pay.
 *
 * <p>Run: scripts/bench/control-plane.sh [RANKS...]; in the suite at 1024 ranks (ControlPlaneScaleTest).
 */
public final class ControlPlaneScale {
    /** A sweep's flags as MeasuredFlags writes them: about what every rank presents. */
    static final String FLAGS = String.join("\n", "--collective all_reduce", "-b 8", "-e 4194304", "-f 2", "-i 0", "-n 20",
            "-w 1", "-m 1", "-N 1", "-c 1", "-o sum", "-d float", "-r 0", "-a 1", "-z 0", "-g 1", "-t 1", "-G 0", "-I 0",
            "--backend socket", "--ranks 1", "--sockets-per-peer 1", "--socket-algo auto", "--socket-chunk 0");
    static final byte[] TOKEN = "control-plane-sc".getBytes(StandardCharsets.US_ASCII);
    /** Thread stacks: a simulated rank needs little, and 8192 of them share one JVM. */
    private static final long STACK_BYTES = 144 << 10;
    /** Threads that create the simulated ranks' threads: each start waits for its new thread to be scheduled. */
    private static final int STARTERS = 32;

    /**
     * @param startMs        creating and starting the simulated ranks' threads, before the rendezvous
     * @param rendezvousMs   from the ranks' release to rank 0 past the rendezvous barrier
     * @param warmupMs       per warm-up size, as rank 0 sees it, in order: the same steps before the measured sizes, while
     *                       the JIT compiles the store's code (a sweep's rendezvous, code warm-up and -w calls do that)
     * @param sizeMs         per measured size (both placements), as rank 0 sees it, in order
     * @param bytesToRank0   per size: what the store sent rank 0 (queued for it: counted whole, wherever a round's
     *                       writes are when the measured sizes start)
     * @param bytesOut       per size: what the store sent every rank together (queued, likewise)
     * @param bytesIn        per size: what every rank sent the store together
     * @param messages       per size: requests in plus answers out
     * @param payload        the results payload of one rank (bytes)
     * @param storeCpuMs     per size: the CPU time of the store's threads (its own and its acceptor's): what the store
     *                       itself costs
     * @param simulatedCpuMs per size: the CPU time of the threads that play the ranks, which a job runs on other nodes
     * @param rendezvousMaxOther the most bytes the store sent one rank other than 0 in the rendezvous (up to the last
     *                       barrier's release, 8 bytes, which may still be on its way)
     * @param peersMax       the most peers one rank looked up
     * @param rendezvousStoreCpuMs the store thread's CPU time in the rendezvous
     */
    record Result(int n, double startMs, double rendezvousMs, double[] warmupMs, double[] sizeMs, double bytesToRank0, double bytesOut,
                  double bytesIn, double messages, int payload, double storeCpuMs, double simulatedCpuMs,
                  long rendezvousMaxOther, int peersMax, double rendezvousStoreCpuMs) {
        double medianSizeMs() {
            double[] s = sizeMs.clone();
            Arrays.sort(s);
            return s[s.length / 2];
        }

        double medianWarmupMs() {
            double[] s = warmupMs.clone();
            Arrays.sort(s);
            return s.length == 0 ? 0 : s[s.length / 2];
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
        return run(n, 8, false, 0, sizes, iters, timeoutMillis);
    }

    /**
     * @param perProcess ranks a simulated process, sharing its connection (a divisor of {@code n})
     * @param processes  simulated processes on non-blocking sockets, driven by one thread a core, each speaking for its
     *                   ranks ({@link SimulatedProcesses}): what a job of nodes costs the store, without the cost of
     *                   waking a thread a process or a rank on this machine's cores; else a thread a rank, with the
     *                   real client ({@link StoreClient#connectAll})
     * @param warmup     sizes run first and left out of the per-size figures (reported apart)
     */
    static Result run(int n, int perProcess, boolean processes, int warmup, int sizes, int iters, long timeoutMillis)
            throws Exception {
        if (perProcess < 1 || n % perProcess != 0) {
            throw new IllegalArgumentException(perProcess + " ranks a process do not divide " + n + " ranks");
        }
        int payload = 8 * (2 + iters);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, timeoutMillis)) {
            Run run = new Run(server, n, perProcess, warmup, sizes, payload, timeoutMillis);
            int drivers = Math.max(1, Math.min(n / perProcess, Integer.getInteger("drivers", Runtime.getRuntime().availableProcessors())));
            int units = processes ? drivers : n;
            Thread[] threads = new Thread[units];
            CountDownLatch go = new CountDownLatch(1);
            long t0 = System.nanoTime();
            Thread[] starters = new Thread[STARTERS];
            for (int s = 0; s < STARTERS; s++) {
                int first = s;
                starters[s] = new Thread(() -> {
                    for (int r = first; r < units; r += STARTERS) {
                        int unit = r;
                        threads[r] = new Thread(null, () -> {
                            try {
                                go.await();
                                if (processes) {
                                    new SimulatedProcesses(run, unit, drivers).run();
                                } else {
                                    run.rank(unit);
                                }
                            } catch (Throwable e) {
                                run.failure.compareAndSet(null, e);
                            }
                        }, (processes ? "processes" : "rank") + r, STACK_BYTES);
                        threads[r].start();
                    }
                });
                starters[s].start();
            }
            for (Thread t : starters) {
                t.join();
            }
            long released = System.nanoTime();
            long cpuAtRelease = storeCpuNanos();
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            if (run.failure.get() != null) {
                throw new IllegalStateException("a simulated rank failed: " + run.failure.get(), run.failure.get());
            }
            long[] end = server.traffic().snapshot();
            double[] all = new double[warmup + sizes];
            long last = run.rendezvousEnd;
            for (int s = 0; s < all.length; s++) {
                all[s] = (run.sizeEnd[s] - last) / 1e6;
                last = run.sizeEnd[s];
            }
            double[] sizeMs = Arrays.copyOfRange(all, warmup, all.length);
            // the traffic of the measured sizes: from the rendezvous or the warm-up to the end, with the last results and
            // the end's barrier
            long[] a = run.traffic;
            long[] queued = server.traffic().bytesOutByRank();
            long toAll = 0;
            for (int r = 0; r < n; r++) {
                toAll += queued[r] - run.queuedFrom[r];
            }
            long maxOther = 0;
            for (int r = 1; r < n; r++) {
                maxOther = Math.max(maxOther, run.byRank[r]);
            }
            return new Result(n, (released - t0) / 1e6, (run.rendezvousEnd - released) / 1e6,
                    Arrays.copyOfRange(all, 0, warmup), sizeMs,
                    (queued[0] - run.queuedFrom[0]) / (double) sizes, toAll / (double) sizes, (end[0] - a[0]) / (double) sizes,
                    (end[3] - a[3] + end[4] - a[4]) / (double) sizes, payload, (run.storeCpuEnd - run.storeCpu) / 1e6 / sizes,
                    (run.simulatedCpuEnd - run.simulatedCpu) / 1e6 / sizes, maxOther, run.peersMax.get(),
                    (run.rendezvousStoreCpu - cpuAtRelease) / 1e6);
        }
    }

    /** What the simulated ranks share: the store, and what rank 0 notes on the way. */
    static final class Run {
        final StoreServer server;
        final InetSocketAddress at;
        final int n;
        final int perProcess;
        /** Each simulated process's ranks' clients, once its first rank has connected them. */
        final java.util.concurrent.CompletableFuture<List<StoreClient>>[] processes;
        final int warmup;
        final int sizes;
        final int payload;
        final long timeoutMillis;
        final long[] sizeEnd;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final java.util.concurrent.atomic.AtomicInteger peersMax = new java.util.concurrent.atomic.AtomicInteger();
        long rendezvousEnd;
        long[] traffic;
        /** The bytes queued for each rank when the measured sizes start. */
        long[] queuedFrom;
        long[] byRank;
        long storeCpu;
        long simulatedCpu;
        /** At the last measured size's end, while the threads that play the ranks still run (a dead thread's is gone). */
        long storeCpuEnd;
        long simulatedCpuEnd;
        long rendezvousStoreCpu;

        @SuppressWarnings("unchecked")
        Run(StoreServer server, int n, int perProcess, int warmup, int sizes, int payload, long timeoutMillis) {
            this.server = server;
            this.at = new InetSocketAddress("127.0.0.1", server.port());
            this.n = n;
            this.perProcess = perProcess;
            this.processes = new java.util.concurrent.CompletableFuture[n / perProcess];
            for (int p = 0; p < processes.length; p++) {
                processes[p] = new java.util.concurrent.CompletableFuture<>();
            }
            this.warmup = warmup;
            this.sizes = sizes;
            this.payload = payload;
            this.timeoutMillis = timeoutMillis;
            this.sizeEnd = new long[warmup + sizes];
        }

        /** A rank's client: the first rank of a simulated process connects the process, the others take theirs. */
        StoreClient client(int rank) throws Exception {
            int p = rank / perProcess;
            if (rank % perProcess == 0) {
                try {
                    processes[p].complete(StoreClient.connectAll(at, TOKEN, rank, perProcess, n, timeoutMillis, FLAGS));
                } catch (RuntimeException e) {
                    processes[p].completeExceptionally(e);
                    throw e;
                }
            }
            return processes[p].get().get(rank % perProcess);
        }

        /** Rank 0 past the rendezvous: the time and the store's counts so far. */
        void rendezvousDone() {
            rendezvousEnd = System.nanoTime();
            byRank = server.traffic().bytesOutByRank();
            rendezvousStoreCpu = storeCpuNanos();
            if (warmup == 0) {
                measureFrom();
            }
        }

        /** Rank 0 past size {@code s}: its time, and the store's counts once the warm-up is over. */
        void sizeDone(int s) {
            sizeEnd[s] = System.nanoTime();
            if (s == warmup - 1) {
                measureFrom();
            }
            if (s == warmup + sizes - 1) {
                storeCpuEnd = storeCpuNanos();
                simulatedCpuEnd = simulatedCpuNanos();
            }
        }

        /** Where the measured sizes' counts start. */
        private void measureFrom() {
            traffic = server.traffic().snapshot();
            queuedFrom = server.traffic().bytesOutByRank();
            storeCpu = storeCpuNanos();
            simulatedCpu = simulatedCpuNanos();
        }

        /** A rank's information for the rank list, as the sweep gathers it. */
        static byte[] info(int rank) {
            return ("{\"rank\":" + rank + ",\"local_rank\":0,\"host\":\"node" + rank / 8
                    + "\",\"pid\":12345,\"device\":\"eth0:10.0.0." + rank % 250 + "\"}").getBytes(StandardCharsets.UTF_8);
        }

        /** One simulated rank, start to end; rank 0 notes the times and the store's counts. */
        void rank(int rank) throws Exception {
            try (StoreClient c = client(rank)) {
                c.gather("rankinfo", info(rank), 0);
                c.broadcast("run-folder", "20261202-120000-socket-12345".getBytes(StandardCharsets.UTF_8), 0);
                // the socket backend's "host|address|port", looked up by the peers an all_reduce sweep links to
                int[] peers = peers(rank, n);
                peersMax.accumulateAndGet(peers.length, Math::max);
                byte[][] got = c.fromPeers("socket/addresses", address(rank), peers);
                for (int i = 0; i < peers.length; i++) {
                    if (!Arrays.equals(got[i], address(peers[i]))) {
                        throw new IllegalStateException("rank " + rank + " got another address for rank " + peers[i]);
                    }
                }
                c.barrier("ready");
                if (rank == 0) {
                    rendezvousDone();
                }
                byte[] mine = new byte[payload];
                String tag = null;
                for (int s = 0; s < warmup + sizes; s++) {
                    for (String placement : new String[] {"out-of-place", "in-place"}) {
                        String start = "#" + s + " all_reduce " + (8L << s) + " B " + placement + ": start";
                        // the previous placement's results travel with this start barrier (sweep's ResultRelay)
                        if (tag == null) {
                            c.barrier(start);
                        } else {
                            c.gather(start, mine, 0);
                        }
                        tag = start;
                    }
                    if (rank == 0) {
                        sizeDone(s);
                    }
                }
                c.gather(tag + ": results", mine, 0);
                c.barrier("done");
            }
        }
    }

    /** "host|address|port" of a simulated rank, as the socket backend publishes it. */
    static byte[] address(int rank) {
        return ("node" + rank / 8 + "|10." + rank / 62500 + "." + rank / 250 % 250 + "." + rank % 250 + "|" + (40000 + rank % 8))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The ring neighbours and recursive-doubling partners (the socket backend's Peers for all_reduce), in rank order. */
    static int[] peers(int rank, int n) {
        java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
        out.add(Math.floorMod(rank + 1, n));
        out.add(Math.floorMod(rank - 1, n));
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((rank ^ mask) < n) {
                out.add(rank ^ mask);
            }
        }
        out.remove(rank);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The CPU time of the store's threads so far (ns): its own and its acceptor's. */
    static long storeCpuNanos() {
        return cpuNanos(name -> name.startsWith("ncclbench-store"));
    }

    /** The CPU time of the threads that play the ranks so far (ns). */
    static long simulatedCpuNanos() {
        return cpuNanos(name -> name.startsWith("processes") || name.startsWith("rank"));
    }

    private static long cpuNanos(java.util.function.Predicate<String> named) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (java.lang.management.ThreadInfo t : mx.dumpAllThreads(false, false)) {
            if (named.test(t.getThreadName())) {
                sum += Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
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

    /**
     * Runs the given rank counts in each mode {@code -Dmode} names: {@code process} (a thread a simulated process of
     * {@code -DperProcess} ranks, default 8: the store's cost for a job of nodes), {@code rank} (a thread a rank, the
     * real client's local ranks sharing their process's connection), or {@code both} (the default).
     */
    public static void main(String[] args) throws Exception {
        List<Integer> ranks = new ArrayList<>();
        for (String a : args) {
            ranks.add(Integer.parseInt(a));
        }
        if (ranks.isEmpty()) {
            ranks = List.of(64, 512, 2048, 8192);
        }
        String mode = System.getProperty("mode", "both");
        if (!List.of("process", "rank", "both").contains(mode)) {
            throw new IllegalArgumentException("-Dmode=" + mode + ": process, rank or both");
        }
        for (boolean perProcessThread : new boolean[] {true, false}) {
            if (mode.equals(perProcessThread ? "rank" : "process")) {
                continue;
            }
            table(ranks, perProcessThread);
        }
    }

    private static void table(List<Integer> ranks, boolean processes) throws Exception {
        int sizes = Integer.getInteger("sizes", 20);
        int warmup = Integer.getInteger("warmup", 40);
        int iters = Integer.getInteger("iters", 20);
        int perProcess = Integer.getInteger("perProcess", 8);
        System.out.printf(Locale.ROOT, "# control plane at scale: simulated %s, %d ranks a process on one connection,"
                + " real store over loopback, %d sizes x 2 placements after %d warm-up sizes (warmup_ms: their median),"
                + " %d-iteration results (%d B a rank); %d cores%n",
                processes ? "processes (non-blocking sockets, a driving thread a core)" : "ranks as threads",
                perProcess, sizes, warmup, iters, 8 * (2 + iters), Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%7s %9s %13s %13s %10s %14s %12s %15s %13s %16s %16s %13s %10s %12s%n", "ranks",
                "start_s", "rendezvous_s", "rdv_store_cpu", "warmup_ms", "size_ms_median", "size_ms_max", "store_cpu_ms/sz",
                "sim_cpu_ms/sz", "B_to_rank0/size",
                "B_out_all/size", "B_other/size", "msgs/size", "rdv_B_other");
        List<Result> results = new ArrayList<>();
        for (int n : ranks) {
            Result r = run(n, perProcess, processes, warmup, sizes, iters, 120_000);
            results.add(r);
            if (Boolean.getBoolean("printSizes")) {
                System.out.println("# per size (ms): warm-up " + Arrays.toString(Arrays.stream(r.warmupMs()).mapToLong(Math::round).toArray())
                        + ", measured " + Arrays.toString(Arrays.stream(r.sizeMs()).mapToLong(Math::round).toArray()));
            }
            System.out.printf(Locale.ROOT, "%7d %9.2f %13.2f %13.2f %10.1f %14.1f %12.1f %15.1f %13.1f %16.0f %16.0f %13.1f %10.0f"
                            + " %12d%n", n, r.startMs() / 1e3, r.rendezvousMs() / 1e3, r.rendezvousStoreCpuMs() / 1e3,
                    r.medianWarmupMs(), r.medianSizeMs(), r.maxSizeMs(), r.storeCpuMs(), r.simulatedCpuMs(),
                    r.bytesToRank0(), r.bytesOut(), r.bytesPerOtherRank(), r.messages(), r.rendezvousMaxOther());
            System.gc();
        }
        if (results.size() >= 2) {
            System.out.printf(Locale.ROOT, "# growth with N (exponent k of N^k, least squares): rendezvous %.2f, per-size"
                            + " control %.2f, bytes to rank 0 %.2f, bytes out in all %.2f, bytes to each other rank %.2f,"
                            + " rendezvous bytes to one other rank %.2f (its peers: log2 N)%n",
                    growth(results, Result::rendezvousMs), growth(results, Result::medianSizeMs),
                    growth(results, Result::bytesToRank0), growth(results, Result::bytesOut),
                    growth(results, Result::bytesPerOtherRank), growth(results, r -> r.rendezvousMaxOther()));
            Result big = results.get(results.size() - 1);
            System.out.printf(Locale.ROOT, "# at %d ranks: bytes to rank 0 a size / (N x payload) = %.2f (2 placements:"
                    + " about 2 is O(N); N^2 would be about %d)%n", big.n(), big.bytesToRank0() / ((double) big.n() * big.payload()),
                    2 * big.n());
        }
    }
}
