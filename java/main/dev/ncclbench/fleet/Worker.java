package dev.ncclbench.fleet;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.rendezvous.HostLookup;
import dev.ncclbench.rendezvous.StoreServer;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.env.Host;

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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A node of the search: joins rank 0 (retrying until the round's limit has passed: rank 0 may start later), then takes its
 * orders, runs its groups at once and reports, until told the search is over. While it works it sends a
 * heartbeat every few seconds: a node that takes long is slow, not gone.
 */
final class Worker {
    private final InetSocketAddress coordinator;
    private final byte[] token;
    private final int nodes;
    private final String flags;
    private final String name;
    private final int rank;
    private final int localRank;
    private final Backend backend;
    private final RunSpec spec;
    private final long roundMillis;
    private final Host host;
    private final String job;
    /** This node's rails, in rail order (null without --rails). */
    private final List<NodeRail> rails;

    /**
     * @param localRank   this node's index among the processes of its node, for the GPU the groups take
     * @param roundMillis --round-timeout: how long this node tries to join, and what its heartbeat is a tenth of
     *                    (rank 0 waits that long for both); {@code spec}'s -T is the groups' watchdog
     * @param host        the machine, for the backend that opens each group
     * @param job         what the token binds the secret to, as this process read it (Rendezvous.Place#job)
     * @param rails       this node's rails, which its hello reports and a rail round's groups bind to: null without
     *                    --rails, empty when --rails found none here (said so, never taken for "no rail round")
     */
    Worker(InetSocketAddress coordinator, byte[] token, int nodes, String name, int rank, int localRank, Backend backend,
           RunSpec spec, long roundMillis, String flags, Host host, String job, List<NodeRail> rails) {
        this.rails = rails == null ? null : List.copyOf(rails);
        this.job = job;
        this.nodes = nodes;
        this.flags = flags;
        this.coordinator = coordinator;
        this.token = token;
        this.name = name;
        this.rank = rank;
        this.localRank = localRank;
        this.backend = backend;
        this.spec = spec;
        this.roundMillis = roundMillis;
        this.host = host;
    }

    /** How often a node says it is still there: a tenth of the round's limit, between 0.2 and 5 s. */
    static long heartbeatMillis(long roundMillis) {
        return Math.max(200, Math.min(5_000, roundMillis / 10));
    }

    /** A connection to rank 0 on which this node is in the search. */
    private record Joined(Socket socket, DataInputStream in, DataOutputStream out) {
    }

    /** Takes part in the search until rank 0 says it is over; returns what rank 0 decided, one line. */
    String run() {
        Joined joined = join();
        try (Socket s = joined.socket()) {
            DataInputStream in = joined.in();
            DataOutputStream out = joined.out();
            ExecutorService pool = Executors.newCachedThreadPool(r -> daemon(r, "ncclbench-fleet-group"));
            ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "ncclbench-fleet-heartbeat"));
            try {
                while (true) {
                    Messages.Order order = Messages.read(in, Messages.Order.class, Messages.MAX_MESSAGE);
                    if (order.round() == 0) {
                        return order.decided() == null ? "the search is over" : order.decided();
                    }
                    long every = heartbeatMillis(roundMillis);
                    var beating = beat.scheduleAtFixedRate(() -> {
                        try {
                            Messages.write(out, Messages.Report.beat(order.round(), rank));
                        } catch (IOException e) {
                            // the round's own answer will find the connection gone
                        }
                    }, every, every, TimeUnit.MILLISECONDS);
                    List<Future<Messages.GroupResult>> running = new ArrayList<>();
                    for (Messages.Assignment a : order.assignments()) {
                        running.add(pool.submit(() -> a.rail() == null ? GroupRun.run(backend, spec, localRank, token, a, order, host)
                                : onRail(a, order)));
                    }
                    List<Messages.GroupResult> results = new ArrayList<>();
                    for (int i = 0; i < running.size(); i++) {
                        results.add(result(running.get(i), order.assignments().get(i)));
                    }
                    beating.cancel(false);
                    Messages.write(out, new Messages.Report(order.round(), rank, results, false));
                }
            } finally {
                beat.shutdownNow();
                pool.shutdownNow();
            }
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.RUN_FAILED, "rank " + rank + ": lost rank 0, which leads the search ("
                    + (e.getMessage() == null ? e.toString() : e.getMessage()) + ")");
        }
    }

    /**
     * Connects and says hello, again until the round's limit has passed while rank 0 does not listen yet or closes the
     * connection before its welcome (it holds only so many that have not proven themselves, and closes the oldest for a
     * new one). A refusal is final: one line, exit 2.
     */
    private Joined join() {
        String who = "rank " + rank;
        return HostLookup.reach(coordinator, roundMillis, who, "rank 0 at " + where(), s -> {
            s.setTcpNoDelay(true);
            s.setSoTimeout((int) Math.min(StoreServer.HELLO_MILLIS, Math.max(1, roundMillis)));
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            // rank 0's challenge first: the hello answers it, and the job's token never crosses the wire
            Messages.write(out, Messages.Hello.answering(in, token, rank, nodes, name, flags, rails));
            String refused = Messages.read(in, Messages.Welcome.class, Messages.MAX_SHORT).refused();
            if (refused != null) {
                throw NcclbenchException.usage("rank 0 at " + where() + " refused rank " + rank + ": " + refused
                        + (refused.startsWith("wrong job token") ? "; this process: " + job : ""));
            }
            s.setSoTimeout(0); // in the search: rank 0 speaks when a round begins, however long the last took
            return new Joined(s, in, out);
        }, within -> who + " could not join rank 0 at " + where() + within
                + "; is rank 0 running, with the same --rendezvous (or MASTER_ADDR/MASTER_PORT)?");
    }

    /**
     * A rail round's group: the socket backend bound to this node's interface for that rail (NCCL_SOCKET_IFNAME's exact
     * form, "=eth3", so that eth3 does not also take eth30); a rail this node does not have up fails the group, saying so.
     */
    private Messages.GroupResult onRail(Messages.Assignment a, Messages.Order order) {
        int r = a.rail();
        List<NodeRail> mine = rails == null ? List.of() : rails;
        if (r < 0 || r >= mine.size() || !mine.get(r).up()) {
            return new Messages.GroupResult(a.group(), List.of(), "rank " + rank + " (" + name + ") has no rail " + r
                    + (r >= 0 && r < mine.size() ? ": " + mine.get(r).down() : " (it has " + mine.size() + ")"), null);
        }
        RunSpec.SocketOptions s = spec.socket();
        RunSpec bound = spec.withSocket(new RunSpec.SocketOptions(s.perPeer(), "=" + mine.get(r).ifname(), s.algo(), s.chunk()));
        return GroupRun.run(backend, bound, localRank, token, a, order, host);
    }

    private String where() {
        return coordinator.getHostString() + ":" + coordinator.getPort();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static Messages.GroupResult result(Future<Messages.GroupResult> f, Messages.Assignment a) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            return new Messages.GroupResult(a.group(), List.of(), String.valueOf(e.getCause()), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Messages.GroupResult(a.group(), List.of(), "interrupted", null);
        }
    }
}
