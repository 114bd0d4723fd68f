package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.util.function.Function;

/**
 * Rank 0's host name, looked up again on every try to reach it. An {@link InetSocketAddress} is resolved once, when it
 * is made: a name that did not resolve then never does, and a rank would wait out the whole join window (300 s by
 * default) to say only the name. A name that has not resolved for {@link #GRACE_MILLIS} is a typo or a missing DNS
 * entry, not a slow rank 0: the rank ends, exit 3, saying which name and where it came from.
 */
public final class HostLookup {
    /** Long enough for DNS that comes up with the node, short beside a join window. */
    static final long GRACE_MILLIS = 30_000;

    private HostLookup() {
    }

    /** One try on a connected socket: the hello and its answer. Throws IOException to be tried again. */
    @FunctionalInterface
    public interface Attempt<T> {
        T on(Socket connected) throws IOException;
    }

    /**
     * Tries to reach rank 0 at {@code target} until {@code windowMillis} has passed (at least once): looks the name up
     * again each time, gives up after the grace when it has no address, connects with 5 s, and pauses 100 ms between
     * tries. A {@link ProtocolException} is final (the other end is not ours or not this version): one line, exit 2.
     *
     * @param who      "rank 3", as the messages name the process
     * @param what     "rank 0 at host:port", as the messages name what is reached
     * @param timedOut the timeout sentence, given " within 300 s (Connection refused)"
     */
    public static <T> T reach(InetSocketAddress target, long windowMillis, String who, String what, Attempt<T> attempt,
                              Function<String, String> timedOut) {
        long start = System.nanoTime();
        long deadline = start + windowMillis * 1_000_000L;
        IOException last = null;
        InetSocketAddress at;
        do {
            at = again(target);
            if (stillUnresolved(at, start, windowMillis, who)) {
                if (!pause()) {
                    break;
                }
                continue;
            }
            Socket s = new Socket();
            try {
                s.connect(at, 5_000);
                return attempt.on(s);
            } catch (ProtocolException e) {
                closeQuietly(s);
                throw NcclbenchException.usage(who + ": " + what + " cannot be joined: " + e.getMessage());
            } catch (IOException e) {
                closeQuietly(s);
                last = e;
            } catch (RuntimeException e) {
                closeQuietly(s);
                throw e;
            }
            if (!pause()) {
                break;
            }
        } while (System.nanoTime() < deadline);
        if (at.isUnresolved()) {
            throw doesNotResolve(at, start, who);
        }
        throw new NcclbenchException(ExitCode.TIMEOUT, timedOut.apply(" within " + windowMillis / 1000 + " s"
                + (last == null ? "" : " (" + last.getMessage() + ")")));
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // the try has failed already; its own error is the one to report
        }
    }

    /** {@code at}, resolved now if it was not; still unresolved when the name has no address yet. */
    static InetSocketAddress again(InetSocketAddress at) {
        return at.isUnresolved() ? new InetSocketAddress(at.getHostString(), at.getPort()) : at;
    }

    /**
     * Throws when {@code at} has had no address since {@code sinceNanos} for the grace (or the whole window, if
     * shorter); returns whether it is still unresolved, so the caller waits and tries again.
     *
     * @param who "rank 3", as the message names the process
     */
    static boolean stillUnresolved(InetSocketAddress at, long sinceNanos, long windowMillis, String who) {
        if (!at.isUnresolved()) {
            return false;
        }
        if ((System.nanoTime() - sinceNanos) / 1_000_000 >= Math.min(GRACE_MILLIS, windowMillis)) {
            throw doesNotResolve(at, sinceNanos, who);
        }
        return true;
    }

    /** What a rank says when rank 0's name has had no address since {@code sinceNanos}: exit 3, the name, the fix. */
    private static NcclbenchException doesNotResolve(InetSocketAddress at, long sinceNanos, String who) {
        long waited = (System.nanoTime() - sinceNanos) / 1_000_000_000;
        return new NcclbenchException(ExitCode.ENVIRONMENT, who + ": rank 0's host name '" + at.getHostString()
                + "' does not resolve to an address (no answer from DNS or /etc/hosts for " + Math.max(1, waited)
                + " s); MASTER_ADDR (or --rendezvous HOST:PORT) must name rank 0's host as every node resolves it,"
                + " or its address");
    }

    /** The wait between two tries to reach rank 0; false when interrupted (the flag is set again). */
    private static boolean pause() {
        try {
            Thread.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
