package dev.ncclbench.rendezvous;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Simulated processes of the scale harness, driven by one thread each share: each process has its own real
 * connection to the store and speaks the real protocol for its ranks (the hello for all of them, each gather one
 * request carrying every rank's arrival, as {@link LocalArrivals} sends a node's ranks that arrive together, every
 * answer frame read and checked). A thread with non-blocking sockets drives many, so that what a size costs is the
 * store's work and the wire's, not waking a thread for each of 1024 processes on this machine's two cores (in a job
 * each process wakes on its own node). The steps are {@link ControlPlaneScale}'s.
 */
final class SimulatedProcesses {
    /** One gather of the run: its tag, its mode, and what rank 0 notes when it is done. */
    private record Step(String tag, int mode, boolean rendezvousEnd, int sizeEnd) {
    }

    private final ControlPlaneScale.Run run;
    private final int driver;
    private final int drivers;
    private final List<Step> steps = new ArrayList<>();

    /** Processes {@code driver}, {@code driver + drivers}, ... of the run. */
    SimulatedProcesses(ControlPlaneScale.Run run, int driver, int drivers) {
        this.run = run;
        this.driver = driver;
        this.drivers = drivers;
        steps.add(new Step("rankinfo", Wire.TO_ROOT, false, -1));
        steps.add(new Step("run-folder", Wire.FROM_ROOT, false, -1));
        steps.add(new Step("socket/addresses", Wire.PEERS, false, -1));
        steps.add(new Step("ready", Wire.NOTHING, true, -1));
        String tag = null;
        for (int s = 0; s < run.warmup + run.sizes; s++) {
            for (String placement : new String[] {"out-of-place", "in-place"}) {
                String start = "#" + s + " all_reduce " + (8L << s) + " B " + placement + ": start";
                // the previous placement's results travel with this start barrier (sweep's ResultRelay)
                steps.add(new Step(start, tag == null ? Wire.NOTHING : Wire.TO_ROOT, false,
                        placement.equals("in-place") ? s : -1));
                tag = start;
            }
        }
        steps.add(new Step(tag + ": results", Wire.TO_ROOT, false, -1));
        steps.add(new Step("done", Wire.NOTHING, false, -1));
    }

    /** One simulated process: its connection, where it is, and what has come. */
    private final class Process {
        final int first;
        final SocketChannel ch;
        ByteBuffer in = ByteBuffer.allocate(1 << 16);
        final java.util.ArrayDeque<ByteBuffer> out = new java.util.ArrayDeque<>();
        int step;
        int answered;

        Process(int first, SocketChannel ch) {
            this.first = first;
            this.ch = ch;
        }
    }

    void run() throws IOException {
        int count = run.perProcess;
        try (Selector selector = Selector.open()) {
            List<Process> mine = new ArrayList<>();
            for (int p = driver; p < run.n / count; p += drivers) {
                Process proc = new Process(p * count, hello(p * count));
                proc.ch.configureBlocking(false);
                SelectionKey key = proc.ch.register(selector, SelectionKey.OP_READ, proc);
                mine.add(proc);
                send(proc, key);
            }
            int left = mine.size();
            while (left > 0) {
                selector.select(1000);
                for (SelectionKey k : selector.selectedKeys()) {
                    Process proc = (Process) k.attachment();
                    if (k.isValid() && k.isWritable()) {
                        flush(proc, k);
                    }
                    if (k.isValid() && k.isReadable() && read(proc, k)) {
                        left--;
                    }
                }
                selector.selectedKeys().clear();
            }
        }
    }

    /** Connects and says hello for ranks {@code first}... with the flags and a host, blocking: both answers OK. */
    private SocketChannel hello(int first) throws IOException {
        SocketChannel ch = SocketChannel.open(run.at);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        // the store's challenge, read blocking: the hello answers its nonce
        ByteBuffer challenge = ByteBuffer.allocate(Wire.CHALLENGE_BYTES);
        while (challenge.hasRemaining()) {
            if (ch.read(challenge) < 0) {
                throw new IOException("the store closed on ranks " + first + "... before its challenge");
            }
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        Wire.writeHello(new DataOutputStream(b), ControlPlaneScale.TOKEN, Wire.readChallenge(new java.io.DataInputStream(
                new java.io.ByteArrayInputStream(challenge.array()))), first, run.perProcess, run.n, ControlPlaneScale.FLAGS,
                "node" + first / run.perProcess);
        ch.write(ByteBuffer.wrap(b.toByteArray()));
        ByteBuffer two = ByteBuffer.allocate(8);
        while (two.hasRemaining()) {
            if (ch.read(two) < 0) {
                throw new IOException("the store closed on ranks " + first + "...");
            }
        }
        if (two.getInt(0) != Wire.OK || two.getInt(4) != Wire.OK) {
            throw new IOException("the store refused ranks " + first + "...");
        }
        return ch;
    }

    /** The process's request for its current step: every rank's arrival in one OP_GATHERS. */
    private void send(Process proc, SelectionKey key) throws IOException {
        Step s = steps.get(proc.step);
        List<LocalArrivals.Arrival> all = new ArrayList<>(run.perProcess);
        for (int i = 0; i < run.perProcess; i++) {
            int rank = proc.first + i;
            byte[] payload = switch (s.tag()) {
                case "rankinfo" -> ControlPlaneScale.Run.info(rank);
                case "run-folder" -> rank == 0 ? "20261202-120000-socket-12345".getBytes(StandardCharsets.UTF_8) : Wire.EMPTY;
                case "socket/addresses" -> ControlPlaneScale.address(rank);
                default -> s.mode() == Wire.TO_ROOT ? new byte[run.payload] : Wire.EMPTY;
            };
            int[] peers = s.mode() == Wire.PEERS ? ControlPlaneScale.peers(rank, run.n) : null;
            if (peers != null) {
                run.peersMax.accumulateAndGet(peers.length, Math::max);
            }
            all.add(new LocalArrivals.Arrival(rank, payload, peers));
        }
        byte[] req = LocalArrivals.request(s.tag(), s.mode(), 0, all);
        proc.out.add(ByteBuffer.allocate(4 + req.length).putInt(proc.first).put(req).flip());
        flush(proc, key);
    }

    private void flush(Process proc, SelectionKey key) throws IOException {
        while (!proc.out.isEmpty()) {
            ByteBuffer head = proc.out.peek();
            proc.ch.write(head);
            if (head.hasRemaining()) {
                key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                return;
            }
            proc.out.poll();
        }
        key.interestOps(SelectionKey.OP_READ);
    }

    /** Reads what has come; true once the process has said goodbye. */
    private boolean read(Process proc, SelectionKey key) throws IOException {
        if (!proc.in.hasRemaining()) {
            proc.in = ByteBuffer.allocate(proc.in.capacity() * 2).put(proc.in.flip());
        }
        if (proc.ch.read(proc.in) < 0) {
            throw new IOException("the store closed the connection of ranks " + proc.first + "...");
        }
        proc.in.flip();
        while (proc.in.remaining() >= 8) {
            int whose = proc.in.getInt(proc.in.position());
            int length = proc.in.getInt(proc.in.position() + 4);
            if (proc.in.remaining() < 8 + length) {
                if (proc.in.capacity() < 8 + length) {
                    proc.in = ByteBuffer.allocate(8 + length).put(proc.in);
                    proc.in.flip();
                }
                break;
            }
            proc.in.position(proc.in.position() + 8);
            byte[] body = new byte[length];
            proc.in.get(body);
            check(proc, whose, body);
            proc.answered += whose == Wire.EVERY_RANK ? run.perProcess : 1;
            if (proc.answered == run.perProcess) {
                Step s = steps.get(proc.step);
                if (proc.first == 0 && s.rendezvousEnd()) {
                    run.rendezvousDone();
                }
                if (proc.first == 0 && s.sizeEnd() >= 0) {
                    run.sizeDone(s.sizeEnd());
                }
                proc.answered = 0;
                proc.step++;
                if (proc.step == steps.size()) {
                    bye(proc);
                    key.cancel();
                    proc.ch.close();
                    return true;
                }
                send(proc, key);
            }
        }
        proc.in.compact();
        return false;
    }

    /** An answer is OK and holds what its step gives its rank. */
    private void check(Process proc, int whose, byte[] body) throws IOException {
        Step s = steps.get(proc.step);
        ByteBuffer in = ByteBuffer.wrap(body);
        if (in.getInt() != Wire.OK) {
            throw new IllegalStateException("the store failed '" + s.tag() + "' for rank " + whose + ": code " + in.getInt()
                    + ": " + Wire.getString(in, 1 << 16));
        }
        int n = in.getInt();
        int due = s.mode() == Wire.TO_ROOT ? (whose == 0 ? run.n : 0) : s.mode() == Wire.FROM_ROOT ? 1
                : s.mode() == Wire.PEERS ? ControlPlaneScale.peers(whose, run.n).length : 0;
        if (n != due) {
            throw new IllegalStateException("rank " + whose + " got " + n + " payloads for '" + s.tag() + "', not " + due);
        }
        if (s.mode() == Wire.PEERS) {
            int[] peers = ControlPlaneScale.peers(whose, run.n);
            for (int peer : peers) {
                if (!Arrays.equals(Wire.getBytes(in, Wire.MAX_PAYLOAD), ControlPlaneScale.address(peer))) {
                    throw new IllegalStateException("rank " + whose + " got another address for rank " + peer);
                }
            }
        }
    }

    /** Each rank says goodbye (the last step: a few bytes, which the socket takes at once). */
    private void bye(Process proc) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8 * run.perProcess);
        for (int i = 0; i < run.perProcess; i++) {
            b.putInt(proc.first + i).putInt(Wire.OP_BYE);
        }
        b.flip();
        while (b.hasRemaining()) {
            if (proc.ch.write(b) == 0) {
                Thread.onSpinWait();
            }
        }
    }
}
