package dev.ncclbench.fleet;

import dev.ncclbench.rendezvous.StoreServer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Rank 0's side of the search: one connection per node, a small store per group per round, and the round's
 * limit. A node whose connection closes is lost at once; one that has not answered when the round's limit
 * (-T, plus a grace for the answers to travel) has passed is lost as hung, and its connection is closed so
 * that a late answer cannot land in a later round. Either way the round goes on without it.
 */
final class Coordinator implements RoundRunner, AutoCloseable {
    private final ServerSocket server;
    private final InetAddress bind;
    private final String storeHost;
    private List<String> hosts;
    private final FleetSettings settings;
    private final String token;
    private final Map<Integer, Connection> nodes = new ConcurrentHashMap<>();
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;

    private record Lost(int rank, String why) {
    }

    private record Connection(Socket socket, DataOutputStream out) {
    }

    /**
     * @param bind      where to listen (the address the nodes reach rank 0's rendezvous on, or the wildcard)
     * @param storeHost the host name the nodes use for rank 0
     */
    Coordinator(InetAddress bind, String storeHost, List<String> hosts, FleetSettings settings) throws IOException {
        this.bind = bind;
        this.storeHost = storeHost;
        this.hosts = hosts;
        this.settings = settings;
        byte[] t = new byte[16];
        new SecureRandom().nextBytes(t);
        this.token = Base64.getEncoder().encodeToString(t);
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(bind, 0), 1024);
    }

    /** The nodes' names, known once the rendezvous has gathered them. */
    Coordinator withHosts(List<String> names) {
        this.hosts = List.copyOf(names);
        return this;
    }

    int port() {
        return server.getLocalPort();
    }

    String token() {
        return token;
    }

    /** Waits for every node to say hello; those that do not within the round limit are lost before round one. */
    Map<Integer, String> awaitNodes() throws IOException {
        long deadline = System.nanoTime() + settings.roundMillis() * 1_000_000L;
        while (nodes.size() < hosts.size()) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                break;
            }
            server.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            Socket s;
            try {
                s = server.accept();
            } catch (SocketTimeoutException e) {
                break;
            }
            try {
                s.setTcpNoDelay(true);
                s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, left)));
                DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
                Messages.Hello hello = Messages.read(in, Messages.Hello.class);
                if (!token.equals(hello.token()) || hello.rank() < 0 || hello.rank() >= hosts.size() || nodes.containsKey(hello.rank())) {
                    s.close();
                    continue;
                }
                s.setSoTimeout(0);
                nodes.put(hello.rank(), new Connection(s, new DataOutputStream(new BufferedOutputStream(s.getOutputStream()))));
                Thread reader = new Thread(() -> read(hello.rank(), in), "ncclbench-fleet-node" + hello.rank());
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                s.close();
            }
        }
        Map<Integer, String> missing = new LinkedHashMap<>();
        for (int r = 0; r < hosts.size(); r++) {
            if (!nodes.containsKey(r)) {
                missing.put(r, "did not join the search within " + settings.roundSeconds() + " s");
                lost.add(r);
            }
        }
        return missing;
    }

    private void read(int rank, DataInputStream in) {
        try {
            while (true) {
                events.add(Messages.read(in, Messages.Report.class));
            }
        } catch (IOException e) {
            if (!closing) {
                events.add(new Lost(rank, "its connection to rank 0 closed (process killed or crashed?)"));
            }
        }
    }

    @Override
    public Outcome run(RoundPlan plan) {
        List<Group> groups = plan.groups();
        List<StoreServer> stores = new ArrayList<>();
        Map<Integer, List<Messages.Assignment>> byRank = new HashMap<>();
        Map<Integer, String> lostNow = new LinkedHashMap<>();
        Map<Integer, Map<Integer, Messages.GroupResult>> results = new HashMap<>();
        try {
            for (int i = 0; i < groups.size(); i++) {
                Group g = groups.get(i);
                byte[] t = new byte[16];
                new SecureRandom().nextBytes(t);
                StoreServer store = new StoreServer(new InetSocketAddress(bind, 0), t, g.size(), settings.roundMillis());
                stores.add(store);
                String tok = Base64.getEncoder().encodeToString(t);
                for (int k = 0; k < g.size(); k++) {
                    byRank.computeIfAbsent(g.members().get(k), r -> new ArrayList<>())
                            .add(new Messages.Assignment(i, k, g.size(), storeHost, store.port(), tok));
                }
            }
            Set<Integer> pending = new TreeSet<>();
            for (Map.Entry<Integer, List<Messages.Assignment>> e : byRank.entrySet()) {
                int r = e.getKey();
                Connection c = nodes.get(r);
                if (c == null || lost.contains(r)) {
                    lostNow.putIfAbsent(r, "lost before round " + plan.round());
                    continue;
                }
                try {
                    Messages.write(c.out(), new Messages.Order(plan.round(), e.getValue(), settings.sizes(),
                            settings.collectives(), settings.iters(), settings.warmup(), settings.budgetMillis()));
                    pending.add(r);
                } catch (IOException ex) {
                    markLost(r, "rank 0 could not send it round " + plan.round() + " (" + ex.getMessage() + ")", lostNow);
                }
            }
            long grace = Math.max(5_000, settings.roundMillis() / 4);
            long deadline = System.nanoTime() + (settings.roundMillis() + grace) * 1_000_000L;
            while (!pending.isEmpty()) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                Object ev = left > 0 ? events.poll(left, TimeUnit.MILLISECONDS) : null;
                if (ev == null) {
                    for (int r : pending) {
                        markLost(r, "did not answer round " + plan.round() + " within " + settings.roundSeconds()
                                + " s (hung, or the node stopped)", lostNow);
                    }
                    break;
                }
                if (ev instanceof Lost l) {
                    markLost(l.rank(), l.why() + " in round " + plan.round(), lostNow);
                    pending.remove(l.rank());
                } else if (ev instanceof Messages.Report rep && rep.round() == plan.round() && pending.remove(rep.rank())) {
                    for (Messages.GroupResult gr : rep.groups()) {
                        results.computeIfAbsent(gr.group(), x -> new HashMap<>()).put(rep.rank(), gr);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("rank 0 could not serve a group's store: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            stores.forEach(StoreServer::close);
        }
        List<Double> busbw = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            Group g = groups.get(i);
            Map<Integer, Messages.GroupResult> got = results.getOrDefault(i, Map.of());
            String err = GroupResults.error(g, got, lost, hosts);
            errors.add(err);
            busbw.add(err == null ? GroupResults.busbw(g, got.get(g.members().get(0))) : Double.NaN);
        }
        return new Outcome(busbw, errors, lostNow);
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

    /** Tells every node still there that the search is over. */
    void finish() {
        for (Map.Entry<Integer, Connection> e : nodes.entrySet()) {
            try {
                Messages.write(e.getValue().out(), new Messages.Order(0, List.of(), List.of(), List.of(), 0, 0, 0));
            } catch (IOException ex) {
                // a node that left already has nothing more to hear
            }
        }
    }

    @Override
    public void close() {
        closing = true;
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
