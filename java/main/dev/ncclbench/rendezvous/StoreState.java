package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.HangReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the store knows about the job, and the one verdict every rank gets when the job fails: the first rank
 * that failed by itself, else the first rank whose connection dropped (killed), else the ranks that are
 * neither waiting here nor reporting a failure (hung). Once set the verdict is final: every gather and every
 * fault report after it gets the same sentence and exit code, so no survivor blames a rank that only stopped
 * because another did.
 *
 * <p>Driven by events from the store's one I/O thread (a request, a lost rank, a clock tick), never blocking it: a
 * request that cannot be answered yet waits here, and is answered through the {@link Outbox} when it can. The
 * methods are synchronized only for {@link #awaitEveryoneTold}, which the closing thread calls.
 */
final class StoreState {
    /**
     * How much longer than the timeout a gather waits when several ranks are missing, for those that are waiting on
     * a hung rank in the data plane to say so (the socket mesh's watchdog looks every 250 ms).
     */
    static final long GRACE_MILLIS = 1000;

    /**
     * The last round of a job, failed or not: every rank waits until rank 0 has written the result (rank 0 arrives
     * when it has), or rank 0 is gone, or the timeout has passed. A launcher that ends the whole job as soon as one
     * rank exits (mpirun) must not kill rank 0 halfway through its result.
     */
    static final String EXIT_TAG = "ncclbench/exit";

    /** Where answers go: the store's connections. */
    interface Outbox {
        /**
         * A gather done: answer each of {@code ranks} as {@code mode} says ({@code payloads} null: all empty;
         * {@code wanted}: under {@link Wire#PEERS} the ranks each rank asked for, else null).
         */
        void complete(int[] ranks, int mode, int root, byte[][] payloads, int[][] wanted);

        /** The job's verdict (or a refusal) to one rank. */
        void verdict(int rank, Verdict v);
    }

    /** A sentence and the exit code it carries on the wire. */
    record Verdict(ExitCode code, String message) {
    }

    private record Fault(boolean self, ExitCode code, String step, String message) {
    }

    private static final class Round {
        final String tag;
        final int mode;
        final int root;
        final byte[][] payloads;
        /** Under {@link Wire#PEERS}: the ranks each rank asked for. */
        final int[][] wanted;
        int arrived;
        final long firstArrival = System.nanoTime();

        Round(String tag, int n, int mode, int root) {
            this.tag = tag;
            this.payloads = new byte[n][];
            this.wanted = mode == Wire.PEERS ? new int[n][] : null;
            this.mode = mode;
            this.root = root;
        }
    }

    private final int nranks;
    private final long timeoutMillis;
    private final Outbox outbox;
    private final Map<String, Round> rounds = new HashMap<>();
    /** In the order they were lost: the first is the one that died first. */
    private final Map<Integer, String> lost = new LinkedHashMap<>();
    private final Map<Integer, Fault> faults = new LinkedHashMap<>();
    /** Ranks whose fault report awaits the verdict, in rank order. */
    private final TreeMap<Integer, Long> faultWaiting = new TreeMap<>();
    /** Ranks in the exit round, and since when (System.nanoTime). */
    private final Map<Integer, Long> exitWaiting = new HashMap<>();
    private final String[] waitingAt;
    /** Each rank's host, as its process said in its hello (null: never connected): a hang names its hosts too. */
    private final java.util.function.IntFunction<String> hostOf;
    /** Every rank, in order: who a completed round answers (shared, never changed). */
    private final int[] everyone;
    private final boolean[] departed;
    private final boolean[] told;
    private final JobFlags flags = new JobFlags();
    private Verdict verdict;
    private long firstPeerFault;
    private boolean closed;
    private boolean exitPosted;

    StoreState(int nranks, long timeoutMillis, Outbox outbox, java.util.function.IntFunction<String> hostOf) {
        this.nranks = nranks;
        this.timeoutMillis = timeoutMillis;
        this.outbox = outbox;
        this.waitingAt = new String[nranks];
        this.hostOf = hostOf;
        this.everyone = java.util.stream.IntStream.range(0, nranks).toArray();
        this.departed = new boolean[nranks];
        this.told = new boolean[nranks];
    }

    /** "rank 6 did not reach 'x' within 3 s on node2 (hung or too slow; -T sets this limit)". */
    private String hang(List<Integer> hung, String step) {
        return HangReport.didNotReach(hung, step, timeoutMillis) + HangReport.onHosts(hung, hostOf)
                + " (hung or too slow; -T sets this limit)";
    }

    synchronized void lost(int rank, String why) {
        if (!departed[rank]) {
            lost.putIfAbsent(rank, why);
        }
        settle();
    }

    /** The rank said goodbye: it is neither lost nor hung. */
    synchronized void departed(int rank) {
        departed[rank] = true;
        settle();
    }

    /** Whether the job's verdict is decided: the ranks still waiting are being told it. */
    synchronized boolean decided() {
        return verdict != null;
    }

    /** Whether anything waits on the clock (a gather, a fault report, the exit round): else {@link #tick} has nothing to do. */
    synchronized boolean waiting() {
        return !rounds.isEmpty() || !faultWaiting.isEmpty() || !exitWaiting.isEmpty();
    }

    /** Sends {@code v} to {@code rank} and remembers that it has been told. */
    private void tell(int rank, Verdict v) {
        told[rank] = true;
        outbox.verdict(rank, v);
        notifyAll();
    }

    /**
     * Before the store closes on a decided verdict: waits until every rank has been told it, said goodbye or is lost,
     * at most {@code millis}, so that a rank still starting (or reading) hears the verdict instead of finding no
     * store and waiting out its timeout.
     */
    synchronized void awaitEveryoneTold(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (true) {
            boolean all = true;
            for (int r = 0; r < nranks && all; r++) {
                all = told[r] || departed[r] || lost.containsKey(r);
            }
            long left = (end - System.nanoTime()) / 1_000_000;
            if (all || left <= 0) {
                return;
            }
            try {
                wait(Math.max(1, Math.min(1000, left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    synchronized void close() {
        closed = true;
        settle();
    }

    /**
     * A rank presents its flags: the first to do so sets the job's; one that differs ends the job at once with a
     * usage verdict naming both ranks and the first flag that differs. Returns that verdict, or null.
     */
    synchronized Verdict flags(int rank, String presented) {
        String differs = flags.present(rank, presented);
        if (differs != null) {
            decide(new Verdict(ExitCode.USAGE, differs));
            settle();
            return verdict;
        }
        return null;
    }

    /**
     * A gather request: answered now or later through the outbox, as {@code mode} says ({@code wanted}: the ranks
     * whose payloads this rank asks under {@link Wire#PEERS}, else null).
     */
    synchronized void gather(int rank, String tag, int mode, int root, byte[] payload, int[] wanted) {
        if (tag.equals(EXIT_TAG)) {
            if (rank == 0) {
                exitPosted = true;
                outbox.complete(new int[] {0}, Wire.NOTHING, root, null, null);
            } else {
                exitWaiting.put(rank, System.nanoTime());
            }
            settle();
            return;
        }
        // a rank waits for its gather's answer before it asks another: a second one open is no rank of ours, and holding
        // it (or a round for it) would let one connection keep a payload under every tag it makes up
        String open = waitingAt[rank];
        Round round = open == null || open.equals(tag) ? rounds.computeIfAbsent(tag, t -> new Round(t, nranks, mode, root)) : null;
        if (round == null || round.payloads[rank] != null) {
            tell(rank, new Verdict(ExitCode.INTERNAL, round == null ? "rank " + rank + " asked '" + tag + "' while its '" + open
                    + "' still waits: a rank has one gather open at a time" : "rank " + rank + " sent tag '" + tag + "' twice"));
            return;
        }
        if (round.mode != mode || round.root != root) {
            tell(rank, decide(new Verdict(ExitCode.INTERNAL, "rank " + rank + " asked '" + tag + "' in another way than the"
                    + " ranks before it (mode " + mode + " root " + root + ", not " + round.mode + " root " + round.root + ")")));
            settle();
            return;
        }
        round.payloads[rank] = payload;
        if (round.wanted != null) {
            round.wanted[rank] = wanted;
        }
        round.arrived++;
        waitingAt[rank] = tag;
        if (round.arrived == nranks && verdict == null) {
            rounds.remove(tag);
            java.util.Arrays.fill(waitingAt, null);
            outbox.complete(everyone, round.mode, round.root, round.payloads, round.wanted);
            return;
        }
        settle();
    }

    /**
     * A rank reports that it failed. One that failed by itself (out of memory, a signal, an error of its own)
     * ends the job at once with its sentence. One that waited too long for a peer, or lost one, waits until every
     * rank is accounted for (reporting, waiting here, lost, gone) or the timeout has passed; the ranks still
     * unaccounted for are the hung ones.
     */
    synchronized void fault(int rank, boolean self, ExitCode code, String step, String message) {
        faults.putIfAbsent(rank, new Fault(self, code, step, message));
        if (!self && firstPeerFault == 0) {
            firstPeerFault = System.nanoTime();
        }
        faultWaiting.put(rank, System.nanoTime());
        settle();
    }

    /**
     * Answers whatever can be answered now: the verdict, once there is one, to every waiting request; the exit round.
     * Cheap (no walk over the ranks): called after every event.
     */
    private void settle() {
        boolean waiting = !rounds.isEmpty() || !faultWaiting.isEmpty();
        Verdict v = waiting ? currentVerdict() : verdict;
        if (v == null && !faultWaiting.isEmpty()) {
            v = faultVerdict(System.nanoTime());
        }
        if (v != null) {
            answerAll(v);
        }
        if (!exitWaiting.isEmpty() && (exitPosted || lost.containsKey(0) || departed[0] || closed)) {
            releaseExits(exitWaiting.keySet().stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** The clock: the timeouts of gathers, fault reports and the exit round. Walks the ranks; called a few times a second. */
    synchronized void tick() {
        settle();
        long now = System.nanoTime();
        List<Integer> expired = new ArrayList<>();
        exitWaiting.forEach((rank, since) -> {
            if ((now - since) / 1_000_000 >= timeoutMillis) {
                expired.add(rank);
            }
        });
        releaseExits(expired.stream().mapToInt(Integer::intValue).toArray());
        for (Round round : new ArrayList<>(rounds.values())) {
            long waited = (now - round.firstArrival) / 1_000_000;
            if (verdict != null || waited < timeoutMillis) {
                continue;
            }
            List<Integer> hung = unaccounted(round);
            // Several missing: one may hang and the others wait on it in the data plane, where their own
            // watchdog names it. Theirs started a moment before this round's first arrival (a rank reaches
            // a gather only once its exchanges are done) and fires on a coarser tick: without this grace the
            // store named "ranks 0 and 2" where rank 0 only waited on rank 2 (MultiProcessTest).
            boolean settling = hung.size() > 1 && waited < timeoutMillis + GRACE_MILLIS;
            if (!settling && (!hung.isEmpty() || faults.isEmpty())) {
                decide(new Verdict(ExitCode.TIMEOUT, hang(hung.isEmpty() ? missing(round) : hung, round.tag)));
            }
            // else the missing ranks are reporting a failure, or may be about to: their verdict comes shortly
        }
        if (verdict == null && !faultWaiting.isEmpty()) {
            faultVerdict(now);
        }
        if (verdict != null) {
            answerAll(verdict);
        }
    }

    /**
     * The waiting fault reports' verdict once every rank is accounted for (the first fault's), or once the timeout
     * has passed since the first peer fault (the ranks unaccounted for hang); else null. Walks the ranks: only while
     * a fault report waits, which is the failure path.
     */
    private Verdict faultVerdict(long now) {
        List<Integer> hung = unaccounted(null);
        long waited = (now - firstPeerFault) / 1_000_000;
        if (hung.isEmpty()) {
            Fault first = faults.values().iterator().next();
            return decide(new Verdict(first.code(), first.message()));
        }
        if (waited >= timeoutMillis) {
            Fault mine = faults.get(faultWaiting.firstKey());
            return decide(new Verdict(ExitCode.TIMEOUT, hang(hung, mine.step())));
        }
        return null;
    }

    private void releaseExits(int[] ranks) {
        if (ranks.length == 0) {
            return;
        }
        for (int r : ranks) {
            exitWaiting.remove(r);
        }
        outbox.complete(ranks, Wire.NOTHING, 0, null, null);
    }

    /** Every waiting gather and fault report gets {@code v}. */
    private void answerAll(Verdict v) {
        for (Iterator<Round> it = rounds.values().iterator(); it.hasNext(); ) {
            Round round = it.next();
            for (int r = 0; r < nranks; r++) {
                if (round.payloads[r] != null && tag(r, round)) {
                    waitingAt[r] = null;
                    tell(r, v);
                }
            }
            it.remove();
        }
        for (int r : faultWaiting.keySet()) {
            tell(r, v);
        }
        faultWaiting.clear();
    }

    private boolean tag(int rank, Round round) {
        return round.tag.equals(waitingAt[rank]);
    }

    /** The verdict as far as it is known: set, or forced by a rank's own failure or a lost rank. */
    private Verdict currentVerdict() {
        if (verdict != null) {
            return verdict;
        }
        for (Map.Entry<Integer, Fault> f : faults.entrySet()) {
            if (f.getValue().self()) {
                return decide(new Verdict(f.getValue().code(), f.getValue().message()));
            }
        }
        if (!lost.isEmpty()) {
            Map.Entry<Integer, String> first = lost.entrySet().iterator().next();
            return decide(new Verdict(ExitCode.RUN_FAILED, "rank " + first.getKey() + " lost: " + first.getValue()));
        }
        if (closed) {
            return new Verdict(ExitCode.RUN_FAILED, "the rendezvous store closed");
        }
        return null;
    }

    private Verdict decide(Verdict v) {
        if (verdict == null) {
            verdict = v;
            notifyAll();
        }
        return verdict;
    }

    /** Ranks neither in {@code round} nor waiting in another, reporting, lost or gone: those that hang. */
    private List<Integer> unaccounted(Round round) {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < nranks; r++) {
            boolean here = round != null && round.payloads[r] != null;
            if (!here && waitingAt[r] == null && !faults.containsKey(r) && !lost.containsKey(r) && !departed[r]) {
                out.add(r);
            }
        }
        return out;
    }

    private static List<Integer> missing(Round round) {
        return java.util.stream.IntStream.range(0, round.payloads.length).filter(i -> round.payloads[i] == null)
                .boxed().toList();
    }
}
