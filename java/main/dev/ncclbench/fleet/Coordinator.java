package dev.ncclbench.fleet;

import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.rendezvous.JobFlags;
import dev.ncclbench.rendezvous.JobProof;

import dev.ncclbench.NcclbenchException;

import dev.ncclbench.rendezvous.StoreJob;
import dev.ncclbench.rendezvous.StoreServer;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Rank 0's side of the search: it listens where the job's rendezvous is, each node connects and proves the job's
 * token in its hello ({@link Joining}: rank, name, flags), and rank 0 talks to each on that connection
 * ({@link NodeReports} reads what they send); one store (one thread, one port) carries every
 * group's own set-up, each group a job of its own with its own token, opened for its round and closed at its end.
 * A node is lost only when its connection closes or when it has sent nothing, not even a heartbeat, for --round-timeout: a
 * node that takes long is slow, and is judged by the rate it reached. A node that did not join within --round-timeout is named
 * from the launcher's node list.
 */
final class Coordinator implements RoundRunner, AutoCloseable {
    /**
     * Groups one round may hold. Each is a job of rank 0's one store: no thread or port of its own, but heap (about
     * 0.9 KB a job, StoreJobsTest measures it, and some 1.5 KB for each of its two connections: under 5 KB a group)
     * and two file descriptors; 2^17 groups take about 0.6 GB of rank 0's heap and 2^18 descriptors. The batched
     * survey's rounds fit up to 1448 nodes (75,264 groups at 1024).
     */
    static final int MAX_GROUPS_PER_ROUND = 1 << 17;
    private final ServerSocket server;
    private final InetAddress bind;
    private final String storeHost;
    private final String[] names;
    private List<String> hosts;
    private final FleetSettings settings;
    private final byte[] token;
    private final Map<Integer, Connection> nodes = new ConcurrentHashMap<>();
    /** What the nodes send rank 0 once in the search. */
    private final NodeReports reports;
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    /** What each node said its rails are, by rank (guarded by names). */
    private final Map<Integer, List<NodeRail>> rails = new HashMap<>();
    /** Every round's groups' store, opened with the first round. */
    private StoreServer store;

    private record Connection(Socket socket, DataOutputStream out) {
    }

    /**
     * @param bind      where to listen (the rendezvous host's address, or the wildcard)
     * @param port      the rendezvous port (0: any, for tests)
     * @param storeHost the host name the nodes use for rank 0
     * @param token     the job's token, which every node proves it holds (JobProof), and of which each group's is made
     * @param world     how many nodes the launcher started
     */
    Coordinator(InetAddress bind, int port, String storeHost, byte[] token, int world, FleetSettings settings) throws IOException {
        this(bind, port, storeHost, token, world, settings, null);
    }

    /** @param flags rank 0's measured flags (null: not compared), which every node's hello must repeat */
    Coordinator(InetAddress bind, int port, String storeHost, byte[] token, int world, FleetSettings settings, String flags)
            throws IOException {
        if (flags != null) {
            jobFlags.present(0, flags);
        }
        this.bind = bind;
        this.storeHost = storeHost;
        this.names = new String[world];
        this.reports = new NodeReports(world);
        this.settings = settings;
        this.token = token.clone();
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(bind, port), Math.max(1024, world));
    }

    /** The names the verdicts use, once every node has joined or the wait is over. */
    Coordinator withHosts(List<String> display) {
        this.hosts = List.copyOf(display);
        return this;
    }

    int port() {
        return server.getLocalPort();
    }

    /**
     * Waits up to --round-timeout for every node to say hello, each read on its own thread (a node that connects and says
     * nothing holds up no other; {@link Joining} bounds what such a connection costs). Those that do not come are lost
     * before round one.
     *
     * @return the ranks that did not join, with why
     */
    Map<Integer, String> awaitNodes() {
        long deadline = System.nanoTime() + settings.roundMillis() * 1_000_000L;
        java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(names.length);
        joining = new Joining(server, token, names.length, deadline, (s, in, out, hello) -> admit(s, in, out, hello, all));
        joining.start();
        try {
            all.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (flagMismatch != null) {
            // one job, one set of flags: a node started otherwise would measure something else (exit 2, at once)
            throw NcclbenchException.usage(flagMismatch);
        }
        Map<Integer, String> missing = new LinkedHashMap<>();
        synchronized (names) {
            for (int r = 0; r < names.length; r++) {
                if (!nodes.containsKey(r)) {
                    String refused = joining.refused(r);
                    missing.put(r, "never joined the search: " + (refused != null
                            ? "rank 0 refused the process that came as rank " + r + " (" + refused + "), and no other came"
                            + " within " + settings.roundSeconds() + " s"
                            : "no process of rank " + r + " connected to rank 0 within " + settings.roundSeconds()
                            + " s (not started, crashed at start, or cannot reach rank 0)"));
                    lost.add(r);
                }
            }
            closedForJoining = true;
        }
        return missing;
    }

    private boolean closedForJoining;
    private final JobFlags jobFlags = new JobFlags();
    /** The first node that came with other flags than rank 0's, said as the store says it; null while none did. */
    private volatile String flagMismatch;
    private volatile Joining joining;

    /** A node that proved the job's token: in the search unless its flags differ or its rank is taken or late. */
    private void admit(Socket s, DataInputStream in, DataOutputStream out, Messages.Hello hello,
                       java.util.concurrent.CountDownLatch all) throws IOException {
        int r = hello.rank();
        if (hello.flags() != null && r > 0) {
            String differ;
            synchronized (jobFlags) {
                differ = jobFlags.present(r, hello.flags());
            }
            if (differ != null && flagMismatch == null) {
                flagMismatch = differ;
                Joining.refuse(s, out, differ);
                while (all.getCount() > 0) {
                    all.countDown(); // wakes the join wait now, not at --round-timeout
                }
                return;
            }
        }
        synchronized (names) {
            if (closedForJoining || nodes.containsKey(r)) {
                Joining.refuse(s, out, closedForJoining ? "the search began without rank " + r + " (it joined after --round-timeout)"
                        : "rank " + r + " has joined already");
                return;
            }
            s.setSoTimeout(0);
            reports.joined(r);
            Messages.write(out, new Messages.Welcome(null));
            names[r] = hello.name();
            rails.put(r, hello.rails() == null ? List.of() : List.copyOf(hello.rails()));
            nodes.put(r, new Connection(s, out));
        }
        all.countDown();
        reports.read(r, s, in);
    }

    /** Each node's rails as it reported them when it joined (none where it never joined or gave no --rails). */
    List<List<NodeRail>> joinedRails() {
        synchronized (names) {
            List<List<NodeRail>> out = new ArrayList<>();
            for (int r = 0; r < names.length; r++) {
                out.add(rails.getOrDefault(r, List.of()));
            }
            return out;
        }
    }

    /** The name each node gave (null where it never joined). */
    List<String> joinedNames() {
        synchronized (names) {
            return java.util.Arrays.asList(names.clone());
        }
    }

    @Override
    public Outcome run(RoundPlan plan) {
        List<Group> groups = plan.groups();
        if (groups.size() > MAX_GROUPS_PER_ROUND) {
            throw new IllegalStateException("round " + plan.round() + " has " + groups.size() + " groups; rank 0 serves at most "
                    + MAX_GROUPS_PER_ROUND + " at once (a job each on its store): use --survey pairs");
        }
        List<StoreJob> jobs = new ArrayList<>();
        Map<Integer, List<Messages.Assignment>> byRank = new HashMap<>();
        Map<Integer, String> lostNow = new LinkedHashMap<>();
        Map<Integer, Map<Integer, Messages.GroupResult>> results = new HashMap<>();
        Set<Integer> unfinished = Set.of();
        reports.round(plan.round());
        try {
            if (store == null) {
                store = new StoreServer(new InetSocketAddress(bind, 0));
            }
            for (int i = 0; i < groups.size(); i++) {
                Group g = groups.get(i);
                // the group's token is made of the job's and a public salt: only the salt travels
                byte[] salt = JobProof.nonce();
                jobs.add(store.open(JobProof.derive(token, salt), g.size(), settings.roundMillis()));
                String said = Base64.getEncoder().encodeToString(salt);
                for (int k = 0; k < g.size(); k++) {
                    byRank.computeIfAbsent(g.members().get(k), r -> new ArrayList<>())
                            .add(new Messages.Assignment(i, k, g.size(), storeHost, store.port(), said, plan.rail(i)));
                }
            }
            Set<Integer> pending = new TreeSet<>();
            for (Map.Entry<Integer, List<Messages.Assignment>> e : byRank.entrySet()) {
                int r = e.getKey();
                Connection c = nodes.get(r);
                if (reports.dropped(r) != null) {
                    markLost(r, reports.dropped(r) + " before round " + plan.round(), lostNow);
                    continue;
                }
                if (c == null || lost.contains(r)) {
                    lostNow.putIfAbsent(r, "lost before round " + plan.round());
                    continue;
                }
                try {
                    Messages.Order order = new Messages.Order(plan.round(), e.getValue(), settings.sizes(),
                            settings.collectives(), settings.iters(), settings.warmup(), settings.budgetMillis(), null);
                    reports.ordered(r, order);
                    Messages.write(c.out(), order);
                    pending.add(r);
                } catch (IOException ex) {
                    markLost(r, "rank 0 could not send it round " + plan.round() + " (" + ex.getMessage() + ")", lostNow);
                }
            }
            long silence = settings.roundMillis() * 1_000_000L;
            long started = System.nanoTime();
            // past this a group still running is given up as unfinished (its nodes, still answering, stay reachable):
            // twice the measuring budget, the set-up, and the round again for the watchdog (-T, at most the round) to fire
            long cap = started + settings.roundCapMillis() * 1_000_000L;
            while (!pending.isEmpty()) {
                Object ev = reports.events.poll(Math.min(500, Math.max(1, settings.roundMillis() / 10)), TimeUnit.MILLISECONDS);
                if (ev instanceof NodeReports.Lost l) {
                    markLost(l.rank(), l.why() + " in round " + plan.round(), lostNow);
                    pending.remove(l.rank());
                } else if (ev instanceof Messages.Report rep && rep.round() == plan.round() && pending.remove(rep.rank())) {
                    for (Messages.GroupResult gr : rep.groups()) {
                        if (byRank.get(rep.rank()).stream().anyMatch(a -> a.group() == gr.group())) {
                            results.computeIfAbsent(gr.group(), x -> new HashMap<>()).put(rep.rank(), gr); // its own groups only
                        }
                    }
                }
                long now = System.nanoTime();
                for (java.util.Iterator<Integer> it = pending.iterator(); it.hasNext(); ) {
                    int r = it.next();
                    if (now - reports.lastHeard.get(r) > silence) {
                        markLost(r, "sent nothing, not even a heartbeat, for " + settings.roundSeconds() + " s in round "
                                + plan.round() + " (hung, stopped, or its network is gone)", lostNow);
                        it.remove();
                    }
                }
                if (now > cap && !pending.isEmpty()) {
                    unfinished = Set.copyOf(pending);
                    break;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("rank 0 could not serve the groups' store: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (store != null) {
                store.close(jobs); // the round's groups end; the store serves the next round's
            }
        }
        List<Double> busbw = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        List<List<SizeSamples>> samples = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            Group g = groups.get(i);
            Map<Integer, Messages.GroupResult> got = results.getOrDefault(i, Map.of());
            String err = GroupResults.error(g, got, lost, unfinished, settings.roundCapMillis() / 1000, hosts);
            errors.add(err);
            busbw.add(err == null ? GroupResults.busbw(g, got.get(g.members().get(0))) : Double.NaN);
            samples.add(err == null ? GroupResults.samples(g, got.get(g.members().get(0))) : null);
        }
        return new Outcome(busbw, errors, lostNow, samples);
    }

    private void markLost(int rank, String why, Map<Integer, String> lostNow) {
        if (lost.add(rank)) {
            lostNow.put(rank, why);
        }
        Connection c = nodes.remove(rank);
        if (c != null) {
            try {
                c.socket().close();
            } catch (IOException e) {
                // it is gone either way
            }
        }
    }

    /**
     * Tells every node still there that the search is over, and what rank 0 {@code decided} (one line); then waits a
     * moment for them to hang up: closing first, with a heartbeat of theirs unread, would reset the connection before
     * they read it.
     */
    void finish(String decided) {
        for (Map.Entry<Integer, Connection> e : nodes.entrySet()) {
            try {
                Messages.write(e.getValue().out(), Messages.Order.over(decided));
            } catch (IOException ex) {
                // a node that left already has nothing more to hear
            }
        }
        reports.awaitHangUps();
    }

    @Override
    public void close() {
        reports.close();
        if (joining != null) {
            joining.close();
        }
        if (store != null) {
            store.close();
        }
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
        for (Connection c : nodes.values()) {
            try {
                c.socket().close();
            } catch (IOException e) {
                // closing
            }
        }
    }
}
