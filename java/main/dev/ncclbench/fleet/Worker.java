package dev.ncclbench.fleet;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.spec.RunSpec;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** A node of the search: takes rank 0's orders, runs its groups at once, reports, until told the search is over. */
final class Worker {
    private final InetSocketAddress coordinator;
    private final String token;
    private final int rank;
    private final int localRank;
    private final Backend backend;
    private final RunSpec spec;

    /** @param localRank this node's index among the processes of its node, for the GPU the groups take */
    Worker(InetSocketAddress coordinator, String token, int rank, int localRank, Backend backend, RunSpec spec) {
        this.coordinator = coordinator;
        this.token = token;
        this.rank = rank;
        this.localRank = localRank;
        this.backend = backend;
        this.spec = spec;
    }

    void run() {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(coordinator, (int) Math.min(Integer.MAX_VALUE, spec.timeoutMillis()));
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            Messages.write(out, new Messages.Hello(rank, token));
            ExecutorService pool = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "ncclbench-fleet-group");
                t.setDaemon(true);
                return t;
            });
            try {
                while (true) {
                    Messages.Order order = Messages.read(in, Messages.Order.class);
                    if (order.round() == 0) {
                        return;
                    }
                    List<Future<Messages.GroupResult>> running = new ArrayList<>();
                    for (Messages.Assignment a : order.assignments()) {
                        running.add(pool.submit(() -> GroupRun.run(backend, spec, localRank, a, order)));
                    }
                    List<Messages.GroupResult> results = new ArrayList<>();
                    for (int i = 0; i < running.size(); i++) {
                        results.add(result(running.get(i), order.assignments().get(i)));
                    }
                    Messages.write(out, new Messages.Report(order.round(), rank, results));
                }
            } finally {
                pool.shutdownNow();
            }
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.RUN_FAILED, "rank " + rank + ": lost rank 0, which leads the search ("
                    + (e.getMessage() == null ? e.toString() : e.getMessage()) + ")");
        }
    }

    private static Messages.GroupResult result(Future<Messages.GroupResult> f, Messages.Assignment a) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            return new Messages.GroupResult(a.group(), List.of(), String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Messages.GroupResult(a.group(), List.of(), "interrupted");
        }
    }
}
