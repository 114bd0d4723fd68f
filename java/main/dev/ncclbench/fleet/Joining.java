package dev.ncclbench.fleet;

import dev.ncclbench.rendezvous.JobProof;
import dev.ncclbench.rendezvous.StoreServer;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rank 0's door to the search: it accepts the nodes' connections until --round-timeout has passed and checks each hello, one
 * thread a connection (a node that connects and says nothing holds up no other). Before a connection has proven the
 * job's token it costs little and not for long, as the store's strangers do: its hello may be at most
 * {@link Messages#MAX_HELLO} bytes, read as they arrive; it is closed after {@link StoreServer#HELLO_MILLIS} whatever it
 * sent; and at most one per node and {@link #SPARE} more wait at once (the oldest is closed for a new one: a real
 * node says its hello one round trip after it connects, and one closed all the same connects again).
 */
final class Joining {
    /** Connections still to prove the job's token beyond one a node. */
    static final int SPARE = 64;

    /** Where a node that proved the job's token goes: admitted (or refused in one line), then served on this thread. */
    interface Door {
        void proven(Socket s, DataInputStream in, DataOutputStream out, Messages.Hello hello) throws IOException;
    }

    private final ServerSocket server;
    private final byte[] token;
    private final String jobId;
    private final int world;
    private final long deadline;
    private final Door door;
    /** Connections that have not proven the token yet, oldest first, with when they came (System.nanoTime). */
    private final LinkedHashMap<Socket, Long> unproven = new LinkedHashMap<>();
    /** Why a process that came as rank r was refused, the last one a rank: what "never joined" then says. */
    private final Map<Integer, String> refused = new ConcurrentHashMap<>();
    private volatile boolean closing;

    /** @param deadline when joining ends (System.nanoTime): --round-timeout after the search began */
    Joining(ServerSocket server, byte[] token, int world, long deadline, Door door) {
        this.server = server;
        this.token = token;
        this.jobId = Base64.getEncoder().encodeToString(JobProof.id(token));
        this.world = world;
        this.deadline = deadline;
        this.door = door;
    }

    void start() {
        Thread t = new Thread(this::acceptLoop, "ncclbench-fleet-accept");
        t.setDaemon(true);
        t.start();
    }

    /** Why the last process that came as {@code rank} was refused, or null when none was. */
    String refused(int rank) {
        return refused.get(rank);
    }

    /** Closes every connection still to prove itself; the search has no more room for them. */
    void close() {
        closing = true;
        synchronized (unproven) {
            unproven.keySet().forEach(Joining::closeQuietly);
            unproven.clear();
        }
    }

    private void acceptLoop() {
        while (!closing && System.nanoTime() < deadline) {
            expire();
            Socket s;
            try {
                server.setSoTimeout((int) Math.max(1, Math.min(1000, (deadline - System.nanoTime()) / 1_000_000L)));
                s = server.accept();
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                return;
            }
            enter(s);
            Thread t = new Thread(() -> hello(s), "ncclbench-fleet-hello");
            t.setDaemon(true);
            t.start();
        }
    }

    /** Counts {@code s} among the unproven, closing the oldest where there are more than one a node and {@link #SPARE}. */
    private void enter(Socket s) {
        synchronized (unproven) {
            for (Iterator<Socket> it = unproven.keySet().iterator(); unproven.size() >= world + SPARE && it.hasNext(); ) {
                closeQuietly(it.next());
                it.remove();
            }
            unproven.put(s, System.nanoTime());
        }
    }

    /** Closes the unproven connections that came more than {@link StoreServer#HELLO_MILLIS} ago, whatever they sent since. */
    private void expire() {
        long now = System.nanoTime();
        synchronized (unproven) {
            for (Iterator<Map.Entry<Socket, Long>> it = unproven.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<Socket, Long> e = it.next();
                if ((now - e.getValue()) / 1_000_000 <= StoreServer.HELLO_MILLIS) {
                    break; // oldest first: the rest are younger
                }
                closeQuietly(e.getKey());
                it.remove();
            }
        }
    }

    /** Whether {@code s} was still waiting (not closed as the oldest or the slowest), and is now proven. */
    private boolean proven(Socket s) {
        synchronized (unproven) {
            return unproven.remove(s) != null;
        }
    }

    private void hello(Socket s) {
        try {
            s.setTcpNoDelay(true);
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            s.setSoTimeout((int) Math.max(1, Math.min(StoreServer.HELLO_MILLIS, left)));
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            // a nonce for this connection alone: the hello proves the job's token by answering it (JobProof#join)
            byte[] nonce = JobProof.nonce();
            Messages.write(out, new Messages.Challenge(JobProof.VERSION, Base64.getEncoder().encodeToString(nonce)));
            Messages.Hello hello = Messages.read(in, Messages.Hello.class, Messages.MAX_HELLO);
            String why = check(hello, nonce);
            if (why != null) {
                if (hello.rank() >= 0 && hello.rank() < world) {
                    refused.put(hello.rank(), why);
                }
                refuse(s, out, why);
                return;
            }
            if (proven(s)) {
                door.proven(s, in, out, hello);
            }
        } catch (IOException | IllegalArgumentException e) {
            closeQuietly(s); // gone, silent, over its limit or garbled before it proved anything: nothing to tell
        } finally {
            proven(s);
        }
    }

    /** Why {@code h} is refused, or null when it proves the job's token for its rank and names one node. */
    private String check(Messages.Hello h, byte[] nonce) {
        int r = h.rank();
        if (h.version() != JobProof.VERSION) {
            return "protocol version " + h.version() + " (rank 0 speaks " + JobProof.VERSION + "): start every node of the"
                    + " search from the same ncclbench";
        }
        if (r < 0 || r >= world) {
            return "rank " + r + " is not a rank of this search of " + world + " nodes";
        }
        if (!jobId.equals(h.job())) {
            return JobProof.wrongJob("this search");
        }
        byte[] answer = h.answer() == null ? null : Base64.getDecoder().decode(h.answer());
        if (!JobProof.proves(token, nonce, r, world, h.name(), h.covered(), answer)) {
            return "rank " + r + " did not prove the job's secret (another NCCLBENCH_TOKEN than rank 0, or a hello replayed"
                    + " from another connection or changed on its way): refused; the search waits for its own";
        }
        if (h.rails() != null && (h.rails().size() > NodeRail.MAX_RAILS
                || h.rails().stream().anyMatch(x -> x == null || !x.sayable()))) {
            return "rank " + r + " reported rails rank 0 cannot name (at most " + NodeRail.MAX_RAILS + ", each an interface"
                    + " or NIC name of letters, digits, '.', '-', '_', ':', '@', '+'): give it --rails with interface names";
        }
        if (!NodeList.isNodeName(h.name())) {
            // proven, so the node's own: a drain must name one node, and the verdicts one line each
            return "rank " + r + " named its node " + NodeList.quoted(h.name()) + ", which is not one node's name (letters,"
                    + " digits, '.', '-' and '_'): give it --node-name NAME";
        }
        return null;
    }

    /** Tells a process why it is not in the search, one line, and closes its connection. */
    static void refuse(Socket s, DataOutputStream out, String why) throws IOException {
        try {
            Messages.write(out, new Messages.Welcome(why));
        } finally {
            s.close();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // gone either way
        }
    }
}
