package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.HangReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the store knows about the job, and the one verdict every rank gets when the job fails: the first rank
 * that failed by itself, else the first rank whose connection dropped (killed), else the ranks that are
 * neither waiting here nor reporting a failure (hung). Once set the verdict is final: every gather and every
 * fault report after it gets the same sentence and exit code, so no survivor blames a rank that only stopped
 * because another did.
 */
final class StoreState {
    /**
     * How much longer than the timeout a gather waits when several ranks are missing, for those that are waiting on
     * a hung rank in the data plane to say so (the socket mesh's watchdog looks every 250 ms).
     */
    static final long GRACE_MILLIS = 1000;

    private final int nranks;
    private final long timeoutMillis;
    private final Map<String, Round> rounds = new HashMap<>();
    /** In the order they were lost: the first is the one that died first. */
    private final Map<Integer, String> lost = new LinkedHashMap<>();
    private final Map<Integer, Fault> faults = new LinkedHashMap<>();
    private final String[] waitingAt;
    private final boolean[] departed;
    private final boolean[] told;
    private Verdict verdict;
    private long firstPeerFault;
    private boolean closed;
    private boolean exitPosted;

    /** A sentence and the exit code it carries on the wire. */
    record Verdict(ExitCode code, String message) {
    }

    private record Fault(boolean self, ExitCode code, String step, String message) {
    }

    private static final class Round {
        final byte[][] payloads;
        int arrived;
        int replied;
        final long firstArrival = System.nanoTime();

        Round(int n) {
            payloads = new byte[n][];
        }
    }

    StoreState(int nranks, long timeoutMillis) {
        this.nranks = nranks;
        this.timeoutMillis = timeoutMillis;
        this.waitingAt = new String[nranks];
        this.departed = new boolean[nranks];
        this.told = new boolean[nranks];
    }

    synchronized void lost(int rank, String why) {
        if (!departed[rank]) {
            lost.putIfAbsent(rank, why);
        }
        notifyAll();
    }

    /** The rank said goodbye: it is neither lost nor hung. */
    synchronized void departed(int rank) {
        departed[rank] = true;
        notifyAll();
    }

    /** Whether the job's verdict is decided: the ranks still waiting are being told it. */
    synchronized boolean decided() {
        return verdict != null;
    }

    /** Rank {@code rank} has been sent the verdict. */
    synchronized void told(int rank) {
        told[rank] = true;
        notifyAll();
    }

    /**
     * Before the store closes on a decided verdict: waits until every rank has been told it, said goodbye or is lost,
     * at most {@code millis}, so that a rank still starting (or reading) hears the verdict instead of finding no
     * store and waiting out its timeout.
     */
    synchronized void awaitEveryoneTold(long millis) {
        long start = System.nanoTime();
        while (true) {
            boolean all = true;
            for (int r = 0; r < nranks; r++) {
                all &= told[r] || departed[r] || lost.containsKey(r);
            }
            long waited = (System.nanoTime() - start) / 1_000_000;
            if (all || waited >= millis || !await(Math.max(1, Math.min(1000, millis - waited)))) {
                return;
            }
        }
    }

    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /**
     * The last round of a job, failed or not: every rank waits until rank 0 has written the result (rank 0 arrives
     * when it has), or rank 0 is gone, or the timeout has passed. A launcher that ends the whole job as soon as one
     * rank exits (mpirun) must not kill rank 0 halfway through its result.
     */
    static final String EXIT_TAG = "ncclbench/exit";

    synchronized Object exitRound(int rank) {
        if (rank == 0) {
            exitPosted = true;
            notifyAll();
            return new byte[nranks][0];
        }
        long start = System.nanoTime();
        while (!exitPosted && !lost.containsKey(0) && !departed[0] && !closed) {
            long waited = (System.nanoTime() - start) / 1_000_000;
            if (waited >= timeoutMillis || !await(Math.max(1, Math.min(1000, timeoutMillis - waited)))) {
                break;
            }
        }
        return new byte[nranks][0];
    }

    /** Every payload, or the verdict that ended the job. */
    synchronized Object gather(int rank, String tag, byte[] payload) {
        if (tag.equals(EXIT_TAG)) {
            return exitRound(rank);
        }
        Round round = rounds.computeIfAbsent(tag, t -> new Round(nranks));
        if (round.payloads[rank] != null) {
            return new Verdict(ExitCode.INTERNAL, "rank " + rank + " sent tag '" + tag + "' twice");
        }
        round.payloads[rank] = payload;
        round.arrived++;
        waitingAt[rank] = tag;
        notifyAll();
        try {
            while (round.arrived < nranks) {
                Verdict v = currentVerdict();
                if (v != null) {
                    return v;
                }
                long waited = (System.nanoTime() - round.firstArrival) / 1_000_000;
                long until = timeoutMillis;
                if (waited >= timeoutMillis) {
                    List<Integer> hung = unaccounted(round);
                    // Several missing: one may hang and the others wait on it in the data plane, where their own
                    // watchdog names it. Theirs started a moment before this round's first arrival (a rank reaches
                    // a gather only once its exchanges are done) and fires on a coarser tick: without this grace the
                    // store named "ranks 0 and 2" where rank 0 only waited on rank 2 (MultiProcessTest).
                    boolean settling = hung.size() > 1 && waited < timeoutMillis + GRACE_MILLIS;
                    if (!settling && (!hung.isEmpty() || faults.isEmpty())) {
                        return decide(new Verdict(ExitCode.TIMEOUT, HangReport.didNotReach(hung.isEmpty() ? missing(round) : hung,
                                tag, timeoutMillis) + " (hung or too slow; -T sets this limit)"));
                    }
                    // the missing ranks are reporting a failure, or may be about to: their verdict comes shortly
                    until = timeoutMillis + GRACE_MILLIS;
                }
                if (!await(Math.max(1, Math.min(1000, until - waited)))) {
                    return new Verdict(ExitCode.INTERNAL, "interrupted");
                }
            }
            byte[][] all = round.payloads.clone();
            if (++round.replied == nranks) {
                rounds.remove(tag);
            }
            return all;
        } finally {
            waitingAt[rank] = null;
        }
    }

    /**
     * A rank reports that it failed. One that failed by itself (out of memory, a signal, an error of its own)
     * ends the job at once with its sentence. One that waited too long for a peer, or lost one, waits until every
     * rank is accounted for (reporting, waiting here, lost, gone) or the timeout has passed; the ranks still
     * unaccounted for are the hung ones.
     */
    synchronized Verdict fault(int rank, boolean self, ExitCode code, String step, String message) {
        faults.putIfAbsent(rank, new Fault(self, code, step, message));
        if (!self && firstPeerFault == 0) {
            firstPeerFault = System.nanoTime();
        }
        notifyAll();
        while (true) {
            Verdict v = currentVerdict();
            if (v != null) {
                return v;
            }
            List<Integer> hung = unaccounted(null);
            long waited = (System.nanoTime() - firstPeerFault) / 1_000_000;
            if (hung.isEmpty()) {
                Fault first = faults.values().iterator().next();
                return decide(new Verdict(first.code(), first.message()));
            }
            if (waited >= timeoutMillis) {
                Fault mine = faults.get(rank);
                return decide(new Verdict(ExitCode.TIMEOUT, HangReport.didNotReach(hung, mine.step(), timeoutMillis)
                        + " (hung or too slow; -T sets this limit)"));
            }
            if (!await(Math.max(1, Math.min(1000, timeoutMillis - waited)))) {
                return new Verdict(ExitCode.INTERNAL, "interrupted");
            }
        }
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
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < round.payloads.length; i++) {
            if (round.payloads[i] == null) {
                out.add(i);
            }
        }
        return out;
    }

    private boolean await(long millis) {
        try {
            wait(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
