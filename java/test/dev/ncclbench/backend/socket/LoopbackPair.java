package dev.ncclbench.backend.socket;

import dev.ncclbench.results.RankInfo;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Two ranks of the socket backend connected over loopback, as the tests of one rank's calls need them. */
final class LoopbackPair implements AutoCloseable {
    final SocketTuning tuning = SocketTuning.of(null, 0);
    private final ServerSocketChannel l0;
    private final ServerSocketChannel l1;
    final Mesh mesh0;
    final Mesh mesh1;
    /** Rank 0's communicator over {@link #mesh0}. */
    final SocketRankComm comm0;

    LoopbackPair() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        l0 = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
        l1 = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
        List<InetSocketAddress> addresses = List.of((InetSocketAddress) l0.getLocalAddress(),
                (InetSocketAddress) l1.getLocalAddress());
        CompletableFuture<Mesh> peer = CompletableFuture.supplyAsync(
                () -> Mesh.connect(1, 2, 2, l1, addresses, 20_000, tuning, Peers.all(1, 2)));
        mesh0 = Mesh.connect(0, 2, 2, l0, addresses, 20_000, tuning, Peers.all(0, 2));
        mesh1 = peer.get();
        comm0 = new SocketRankComm(mesh0, new RankInfo(0, 0, "test", 1, "lo"), tuning);
    }

    @Override
    public void close() throws java.io.IOException {
        mesh0.close();
        mesh1.close();
        l0.close();
        l1.close();
    }
}
