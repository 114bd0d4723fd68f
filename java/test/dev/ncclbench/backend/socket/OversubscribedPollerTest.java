package dev.ncclbench.backend.socket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a JVM holds more rank threads than CPUs, a rank whose peer has not sent yet parks at once and never polls
 * (16 processes of 64 ranks on 2 cores spent half a second a call polling): on a real 2-rank mesh over loopback, with
 * more pollers open in this JVM than it has CPUs, rank 1 sends only once rank 0's receive has parked. A poller that
 * polled first would keep rank 1 waiting until the run queue said "crowded", and would count yields.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OversubscribedPollerTest {

    @Test
    void anIdleRankParksAtOnceWhenRankThreadsOutnumberTheCpus() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        SocketTuning tuning = SocketTuning.of(null, 0);
        ServerSocketChannel l0 = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
        ServerSocketChannel l1 = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
        List<InetSocketAddress> addresses = List.of((InetSocketAddress) l0.getLocalAddress(),
                (InetSocketAddress) l1.getLocalAddress());
        // the rank threads of a crowded JVM, as far as the pollers count them
        List<Poller> others = new ArrayList<>();
        for (int i = 0; i <= Runtime.getRuntime().availableProcessors(); i++) {
            others.add(new Poller(new SocketChannel[0][], 1, 1024));
        }
        CompletableFuture<Mesh> peer = CompletableFuture.supplyAsync(() -> Mesh.connect(1, 2, 1, l1, addresses, 20_000, tuning,
                Peers.all(1, 2)));
        try (Mesh m0 = Mesh.connect(0, 2, 1, l0, addresses, 20_000, tuning, Peers.all(0, 2)); Mesh m1 = peer.get()) {
            assertTrue(Poller.oversubscribed());
            Poller p0 = new Poller(new SocketChannel[][] {null, {m0.link(1, 0)}}, 1, 1024);
            others.add(p0);
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                while (p0.parks() == 0) {
                    Thread.onSpinWait(); // until rank 0 is parked: not a sleep, the event itself
                }
                try {
                    ByteBuffer b = ByteBuffer.allocate(8).putLong(0, 42);
                    while (b.hasRemaining()) {
                        m1.link(0, 0).write(b);
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            ByteBuffer in = ByteBuffer.allocateDirect(8);
            p0.run(List.of(), List.of(Xfer.recv(1, in)), m0);
            sender.get(30, TimeUnit.SECONDS);
            assertEquals(42, in.getLong(0), "the bytes arrived");
            assertTrue(p0.parks() >= 1, "parked while waiting");
            assertEquals(0, p0.yields(), "and never polled: an oversubscribed rank does not yield-spin");
        } finally {
            others.forEach(Poller::close);
        }
    }
}
