package dev.ncclbench.backend.socket;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.Group;
import dev.ncclbench.backend.MemoryBudget;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;
import dev.ncclbench.internal.jni.HostReduce;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.netif.InterfaceScan;
import dev.ncclbench.netif.InterfaceSelector;
import dev.ncclbench.netif.NetInterface;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Ranks connected by real TCP sockets: the socket floor that tells a fallen-back NCCL from a healthy one, and
 * the backend that runs anywhere. Each rank binds to the interface NCCL's rules pick (NCCL_SOCKET_IFNAME).
 */
public final class SocketBackend implements Backend {
    /** Per buffer: 3 buffers x local ranks must fit the JVM's memory, and a ByteBuffer holds at most 2 GiB. */
    private static final long MAX_BYTES = 1L << 30;

    @Override
    public String name() {
        return "socket";
    }

    @Override
    public int autoOrder() {
        return 100;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.LOCAL_RANKS, Capability.SOCKET_INTERFACE, Capability.CONCURRENT_GROUPS);
    }

    /** Every op on float, double, int32 and int64 (it moves every type for the collectives that do not reduce). */
    @Override
    public boolean supports(DataType type, ReduceOp op) {
        return Reducer.supports(type);
    }

    @Override
    public long maxBytes() {
        return MAX_BYTES;
    }

    /** Send, receive and scratch buffers per local rank, in the JVM's direct memory. */
    @Override
    public MemoryBudget memory(RunSpec spec) {
        return new MemoryBudget("JVM direct memory", 3, directMemoryLimit(),
                "or fewer --ranks, or a larger heap (NCCLBENCH_JAVA_OPTS=-Xmx16g; direct memory may grow as large)");
    }

    /** -XX:MaxDirectMemorySize when given, else the JVM's default: as much as the heap may grow. */
    static long directMemoryLimit() {
        for (String arg : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-XX:MaxDirectMemorySize=")) {
                try {
                    return Sizes.parse(arg.substring(arg.indexOf('=') + 1));
                } catch (IllegalArgumentException e) {
                    break;
                }
            }
        }
        return Runtime.getRuntime().maxMemory();
    }

    @Override
    public List<String> notes(RunSpec spec, Host host) {
        return List.of(SocketTuning.of(spec.socket().algo(), spec.socket().chunk()).describe(),
                "socket reductions: " + HostReduce.describe());
    }

    @Override
    public Readiness readiness(RunSpec spec, Host host) {
        InterfaceSelector.Selection sel = select(spec, host);
        if (sel.empty()) {
            return Readiness.notReady("interfaces: " + InterfaceSelector.names(InterfaceScan.local()),
                    "no socket interface matches " + sel.rule(), remedy());
        }
        return Readiness.ready("TCP sockets on " + sel.bootstrap().label() + " (" + sel.rule() + ")");
    }

    /** NCCL's own choice: --socket-ifname's (NCCL_SOCKET_IFNAME's) rule, then NCCL_SOCKET_FAMILY and NCCL_COMM_ID. */
    static InterfaceSelector.Selection select(RunSpec spec, Host host) {
        return InterfaceSelector.current().select(InterfaceScan.local(), spec.socket().ifname(),
                host.get(Variable.NCCL_SOCKET_FAMILY), host.get(Variable.NCCL_COMM_ID));
    }

    private static String remedy() {
        List<NetInterface> all = InterfaceScan.local();
        String example = all.stream().filter(i -> !i.loopback()).map(NetInterface::name).findFirst().orElse("lo");
        return "set NCCL_SOCKET_IFNAME to one of: " + InterfaceSelector.names(all) + " (e.g. NCCL_SOCKET_IFNAME=" + example + ")";
    }

    /** Sockets take no GPU: {@code localRank} decides nothing here. */
    @Override
    public List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank, Host machine) {
        InterfaceSelector.Selection sel = select(spec, machine);
        if (sel.empty()) {
            throw new BackendException(ExitCode.ENVIRONMENT, "no socket interface matches " + sel.rule(), remedy());
        }
        NetInterface nic = sel.bootstrap();
        String host = HostName.node(null, machine);
        ExecutorService pool = Executors.newFixedThreadPool(planes.size());
        try {
            List<Future<RankComm>> futures = new ArrayList<>();
            for (ControlPlane plane : planes) {
                futures.add(pool.submit(() -> openRank(spec, plane, nic, host)));
            }
            List<RankComm> comms = new ArrayList<>();
            NcclbenchException failure = null;
            for (Future<RankComm> f : futures) {
                try {
                    comms.add(f.get());
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof NcclbenchException ne ? ne
                                : new BackendException(ExitCode.RUN_FAILED, "socket backend: " + e.getCause(), null, e.getCause());
                    }
                }
            }
            if (failure != null) {
                comms.forEach(RankComm::close);
                throw failure;
            }
            return comms;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(ExitCode.RUN_FAILED, "interrupted while opening the socket backend", null, e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** @param host this node's name, as the header and the result name it */
    private static RankComm openRank(RunSpec spec, ControlPlane plane, NetInterface nic, String host) throws IOException {
        InetAddress bindAddr = nic.address();
        // the mesh keeps the listener for its reconnect (Mesh#reconnect) and closes it; here only on a failure
        ServerSocketChannel listener = ServerSocketChannel.open();
        try {
            listener.bind(new InetSocketAddress(bindAddr, 0), 1024);
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            String mine = host + "|" + bindAddr.getHostAddress() + "|" + port;
            // under nccl-tests' split each group is a mesh of its own: its members only, numbered in world order
            Group group = Group.of(spec, plane);
            boolean[] linked = Peers.needed(spec, group.rank(), group.size());
            int[] inGroup = Peers.ranks(linked);
            int[] peers = new int[inGroup.length];
            for (int i = 0; i < inGroup.length; i++) {
                peers[i] = group.members().get(inGroup[i]);
            }
            // each rank publishes its address and fetches only its peers': O(peers) bytes a rank, not N
            byte[][] got = plane.fromPeers("socket/addresses", mine.getBytes(StandardCharsets.UTF_8), peers);
            List<InetSocketAddress> members = new ArrayList<>(java.util.Collections.nCopies(group.size(), null));
            for (int i = 0; i < inGroup.length; i++) {
                String[] parts = new String(got[i], StandardCharsets.UTF_8).split("\\|");
                members.set(inGroup[i], new InetSocketAddress(InetAddress.getByName(parts[1]), Integer.parseInt(parts[2])));
            }
            SocketTuning tuning = SocketTuning.of(spec.socket().algo(), spec.socket().chunk());
            Mesh mesh = Mesh.connect(group.rank(), group.size(), spec.socket().perPeer(), listener, members, spec.timeoutMillis(),
                    tuning, linked);
            RankInfo info = new RankInfo(plane.rank(), -1, host, ProcessHandle.current().pid(), nic.label(), group.color());
            return new SocketRankComm(mesh, info, tuning, BackendChecks.largestBuffer(spec, spec.range().maxBytes(), group.size()));
        } catch (IOException | RuntimeException e) {
            MeshLinks.close(listener); // quietly: e is the error to report
            throw e;
        }
    }

}
