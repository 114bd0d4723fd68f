package dev.ncclbench.nccllog;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes the NCCL logs of a big job: nodes x gpus ranks, one file per rank (NCCL_DEBUG_FILE=nccl.%h.%p) or one per
 * node with its ranks' lines interleaved (a launcher's merged stdout). The lines follow the era-2.18-2.23 fixture
 * (ibext-pxn-gdr.log: IBext with per-HCA GDR lines, "Channel %02d/0" connection lines, nRanks/nNodes lines); socket
 * nodes print what NCCL prints without IB (NET/IB : No device found, NET/Socket interfaces, NET/Socket/0
 * connections). Each rank is padded to its line count with the collective trace lines NCCL_DEBUG_SUBSYS=COLL prints.
 *
 * <pre>
 * java -cp target/test-classes:target/classes dev.ncclbench.nccllog.ScaleLogSet --nodes 1024 --gpus 8 \
 *     --lines 2000 --layout rank --socket-nodes 700,1001 --out /tmp/logs
 * </pre>
 */
public final class ScaleLogSet {
    /** What to write; socketNodes are node indexes (0-based) that fell back to NET/Socket. */
    public record Spec(int nodes, int gpus, int linesPerRank, boolean perNode, Set<Integer> socketNodes, int channels) {
        public int ranks() {
            return nodes * gpus;
        }
    }

    private ScaleLogSet() {
    }

    public static String host(int node) {
        return String.format(Locale.ROOT, "node-%04d", node);
    }

    /** Writes the set into dir; returns the number of lines written. */
    public static long write(Path dir, Spec s) throws IOException {
        Files.createDirectories(dir);
        long lines = 0;
        for (int node = 0; node < s.nodes(); node++) {
            List<List<String>> ranks = new ArrayList<>(s.gpus());
            for (int g = 0; g < s.gpus(); g++) {
                ranks.add(rank(s, node, g));
            }
            if (s.perNode()) {
                try (BufferedWriter w = Files.newBufferedWriter(dir.resolve("nccl." + host(node) + ".log"),
                        StandardCharsets.US_ASCII)) {
                    int most = ranks.stream().mapToInt(List::size).max().orElse(0);
                    for (int i = 0; i < most; i++) {
                        for (List<String> r : ranks) {
                            if (i < r.size()) {
                                w.write(r.get(i));
                                w.write('\n');
                                lines++;
                            }
                        }
                    }
                }
            } else {
                for (int g = 0; g < s.gpus(); g++) {
                    Path f = dir.resolve("nccl." + host(node) + "." + pid(s, node, g) + ".log");
                    try (BufferedWriter w = Files.newBufferedWriter(f, StandardCharsets.US_ASCII)) {
                        for (String l : ranks.get(g)) {
                            w.write(l);
                            w.write('\n');
                            lines++;
                        }
                    }
                }
            }
        }
        return lines;
    }

    private static int pid(Spec s, int node, int gpu) {
        return 20000 + (node * 7 + gpu) % 40000;
    }

    /** One rank's lines, in the order NCCL prints them. */
    static List<String> rank(Spec s, int node, int g) {
        int rank = node * s.gpus() + g;
        int pid = pid(s, node, g);
        String h = host(node);
        String main = h + ":" + pid + ":" + pid + " [" + g + "] NCCL INFO ";
        String init = h + ":" + pid + ":" + (pid + 60) + " [" + g + "] NCCL INFO ";
        boolean socket = s.socketNodes().contains(node);
        String ip = "10." + (20 + node / 65536) + "." + (node / 256 % 256) + "." + (node % 256);
        List<String> out = new ArrayList<>(s.linesPerRank());
        out.add(main + "cudaDriverVersion 12020");
        out.add(main + "Bootstrap : Using ibp25s0:" + ip + "<0>");
        if (rank == 0) {
            out.add("NCCL version 2.19.3+cuda12.2");
        }
        out.add(main + "NCCL_SOCKET_IFNAME set by environment to ibp25s0");
        out.add(main + "NCCL_IB_HCA set by environment to mlx5_0,mlx5_1");
        if (socket) {
            out.add(init + "NET/IB : No device found.");
            out.add(init + "NET/Socket : Using [0]ibp25s0:" + ip + "<0>");
            out.add(init + "Using network Socket");
        } else {
            out.add(init + "NET/IB : Using [0]mlx5_0:1/IB/SHARP [1]mlx5_1:1/IB/SHARP [RO]; OOB ibp25s0:" + ip + "<0>");
            out.add(init + "Using network IBext");
        }
        out.add(init + "comm 0x5" + rank + " rank " + rank + " nRanks " + s.ranks() + " nNodes " + s.nodes()
                + " localRanks " + s.gpus() + " localRank " + g + " MNNVL 0");
        int next = (rank + 1) % s.ranks();
        int prev = (rank + s.ranks() - 1) % s.ranks();
        out.add(init + "Trees [0] " + next + "/-1/-1->" + rank + "->" + prev + " [1] " + next + "/-1/-1->" + rank
                + "->" + prev);
        out.add(init + "P2P Chunksize set to 131072");
        for (int c = 0; c < s.channels(); c++) {
            String ch = String.format(Locale.ROOT, "Channel %02d/0 : ", c);
            if (!socket && c < 2) {
                out.add(init + "NET/IB : GPU Direct RDMA Enabled for HCA " + c + " 'mlx5_" + c + "'");
            }
            if (g + 1 < s.gpus()) {
                out.add(init + ch + rank + "[" + g + "] -> " + next + "[" + (g + 1) + "] via P2P/IPC/read");
            } else {
                // a link to a node on sockets is a socket link from this end too: both ends print it
                boolean toSocket = socket || s.socketNodes().contains(next / s.gpus());
                out.add(init + ch + rank + "[" + g + "] -> " + next + "[0] [send] via " + net(toSocket, c));
            }
            if (g == 0) {
                boolean fromSocket = socket || s.socketNodes().contains(prev / s.gpus());
                out.add(init + ch + prev + "[" + (s.gpus() - 1) + "] -> " + rank + "[0] [receive] via "
                        + net(fromSocket, c));
            }
        }
        out.add(init + "Connected all rings");
        out.add(init + "Connected all trees");
        out.add(init + "threadThresholds 8/8/64 | " + (8 * s.ranks()) + "/8/64 | 512 | 512");
        out.add(init + s.channels() + " coll channels, 0 collnet channels, 0 nvls channels, " + s.channels()
                + " p2p channels, 2 p2p channels per peer");
        out.add(init + "ncclCommInitRank comm 0x5" + rank + " rank " + rank + " nranks " + s.ranks() + " cudaDev " + g
                + " nvmlDev " + g + " busId " + (0x18 + g * 0x10) + "000 commId 0xab - Init COMPLETE");
        long op = 0;
        while (out.size() < s.linesPerRank()) {
            out.add(main + "AllReduce: opCount " + Long.toHexString(op++) + " sendbuff 0x7f2a4c000000 recvbuff"
                    + " 0x7f2a4c000000 count 2097152 datatype 7 op 0 root 0 comm 0x5" + rank + " [nranks=" + s.ranks()
                    + "] stream 0x55d1c0");
        }
        return out;
    }

    private static String net(boolean socket, int channel) {
        return socket ? "NET/Socket/0" : "NET/IBext/" + (channel % 2) + "/GDRDMA";
    }

    public static void main(String[] args) throws IOException {
        int nodes = 1024;
        int gpus = 8;
        int lines = 2000;
        int channels = 16;
        boolean perNode = false;
        Set<Integer> socket = new HashSet<>();
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(v);
                case "--gpus" -> gpus = Integer.parseInt(v);
                case "--lines" -> lines = Integer.parseInt(v);
                case "--channels" -> channels = Integer.parseInt(v);
                case "--layout" -> perNode = switch (v) {
                    case "rank" -> false;
                    case "node" -> true;
                    default -> throw new IllegalArgumentException("--layout rank|node, not " + v);
                };
                case "--socket-nodes" -> {
                    for (String n : v.split(",")) {
                        if (!n.isBlank()) {
                            socket.add(Integer.parseInt(n.trim()));
                        }
                    }
                }
                case "--out" -> out = Path.of(v);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]
                        + "; use --nodes --gpus --lines --channels --layout rank|node --socket-nodes a,b --out DIR");
            }
            i++;
        }
        if (out == null) {
            throw new IllegalArgumentException("--out DIR is required");
        }
        long t0 = System.nanoTime();
        long n = write(out, new Spec(nodes, gpus, lines, perNode, socket, channels));
        System.out.printf(Locale.ROOT, "wrote %d lines for %d ranks (%d nodes x %d) in %s, %.1f s%n", n, nodes * gpus,
                nodes, gpus, out, (System.nanoTime() - t0) / 1e9);
    }
}
