package dev.ncclbench.doctor.predict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Which NIC NCCL gives each GPU, as NCCL 2.30 decides it:
 * <ol>
 * <li>ports become NCCL's NICs: the ports of one PCI device (its functions, and with NCCL_IB_MERGE_VFS its virtual
 *     functions) are merged into one virtual NIC "mlx5_0+mlx5_1" when NCCL_IB_MERGE_NICS allows (topo.cc
 *     ncclTopoMakeVNics at NCCL_NET_MERGE_LEVEL, default PORT; ports of different link layers are never merged,
 *     net_ib/init.cc); its speed is the sum of its ports';</li>
 * <li>a GPU's local NICs are those with the widest path to it, the nearest among equals (ncclTopoGetLocal);</li>
 * <li>the GPUs that share those NICs split them: GPU d starts at NIC d mod (GPUs there), bits mirrored when the NIC
 *     count is a power of two, and uses NICs-per-GPU of them in turn across its channels
 *     (ncclTopoGetLocalNetType, NCCL_NETDEVS_POLICY).</li>
 * </ol>
 */
final class NicAssignment {
    private static final int MAX_PORTS_PER_NIC = 4;
    private static final double SAME = 1e-9;

    private NicAssignment() {
    }

    /** One NIC as NCCL sees it: one port, or the ports it merged. */
    record Nic(String name, List<NicPort> ports, double gbps) {
        String path() {
            return ports.get(0).pciPath();
        }
    }

    /** A GPU's NICs and how far they are (null: a path is unknown, so is the distance). */
    record Pick(List<Nic> nics, PathType distance) {
        static final Pick NONE = new Pick(List.of(), null);
    }

    /**
     * @param rate each port's rate in Gbit/s as this question should see it (nominal, or as measured)
     */
    static List<Nic> nics(List<NicPort> ports, RailSettings settings, NcclTopology topo, ToDoubleFunction<NicPort> rate) {
        List<Nic> out = new ArrayList<>();
        boolean[] placed = new boolean[ports.size()];
        for (int i = 0; i < ports.size(); i++) {
            if (placed[i]) {
                continue;
            }
            placed[i] = true;
            List<NicPort> members = new ArrayList<>(List.of(ports.get(i)));
            for (int j = 0; j < ports.size() && members.size() < MAX_PORTS_PER_NIC; j++) {
                if (!placed[j] && merges(ports.get(i), ports.get(j), settings, topo)) {
                    placed[j] = true;
                    members.add(ports.get(j));
                }
            }
            String name = String.join("+", members.stream().map(NicPort::device).distinct().toList());
            out.add(new Nic(name, members, members.stream().mapToDouble(rate).sum()));
        }
        return out;
    }

    private static boolean merges(NicPort a, NicPort b, RailSettings settings, NcclTopology topo) {
        if (!NicPort.IB.equals(a.transport()) || !settings.mergeNics() || a.linkLayer() == null
                || !a.linkLayer().equals(b.linkLayer())) {
            return false;
        }
        PathType d = sameNic(a, b, settings) ? PathType.PORT : topo.path(a.pciPath(), b.pciPath());
        return d.compareTo(settings.mergeLevel()) <= 0 && d != PathType.LOC;
    }

    /** The plugin's ncclIbGetPciPath: the function digit zeroed, and with NCCL_IB_MERGE_VFS the device digits too. */
    static boolean sameNic(NicPort a, NicPort b, RailSettings settings) {
        return a.pciPath() != null && b.pciPath() != null
                && nicPath(a.pciPath(), settings.mergeVfs()).equals(nicPath(b.pciPath(), settings.mergeVfs()));
    }

    private static String nicPath(String path, boolean vfs) {
        char[] c = path.toCharArray();
        int n = c.length;
        if (n >= 4 && c[n - 2] == '.') {
            c[n - 1] = '0';
            if (vfs) {
                c[n - 3] = '0';
                c[n - 4] = '0';
            }
        }
        return new String(c);
    }

    /**
     * NCCL's pick for every GPU.
     *
     * @param gpus      GPU paths in CUDA order (index = NCCL's device number)
     * @param interCpu  the inter-socket link's GB/s
     * @param perGpu    NCCL_NETDEVS_POLICY: 0 AUTO, -1 ALL, n MAX:n
     */
    static List<Pick> assign(List<String> gpus, List<Nic> nics, NcclTopology topo, double interCpu, int perGpu) {
        int g = gpus.size();
        int n = nics.size();
        double[][] bw = new double[g][n];
        PathType[][] type = new PathType[g][n];
        boolean[][] known = new boolean[g][n];
        for (int i = 0; i < g; i++) {
            for (int j = 0; j < n; j++) {
                // a device whose path is unknown is as far as can be for the choice, and its distance is not said
                type[i][j] = topo.path(gpus.get(i), nics.get(j).path());
                known[i][j] = gpus.get(i) != null && nics.get(j).path() != null;
                bw[i][j] = Math.min(topo.bandwidth(gpus.get(i), nics.get(j).path(), interCpu), nics.get(j).gbps() / 8);
            }
        }
        List<Pick> out = new ArrayList<>();
        for (int i = 0; i < g; i++) {
            List<Integer> local = best(bw[i], type[i]);
            if (local.isEmpty()) {
                out.add(Pick.NONE);
                continue;
            }
            double[] toGpusBw = new double[g];
            PathType[] toGpusType = new PathType[g];
            for (int k = 0; k < g; k++) {
                toGpusBw[k] = bw[k][local.get(0)];
                toGpusType[k] = type[k][local.get(0)];
            }
            int localGpus = Math.max(1, best(toGpusBw, toGpusType).size());
            int count = local.size();
            int per = perGpu < 0 ? count : perGpu > 0 ? Math.min(perGpu, count) : (count + localGpus - 1) / localGpus;
            int start = i % localGpus;
            if ((count & (count - 1)) == 0) {
                start = mirrorBits(start, count);
            }
            Map<Integer, Nic> picked = new LinkedHashMap<>();
            for (int c = 0; c < per; c++) {
                int j = local.get((start + c % per) % count);
                picked.putIfAbsent(j, nics.get(j));
            }
            int first = local.get(0);
            out.add(new Pick(List.copyOf(picked.values()), known[i][first] ? type[i][first] : null));
        }
        return out;
    }

    /** ncclTopoGetLocal: the widest, then the nearest among equals; in index order. */
    private static List<Integer> best(double[] bw, PathType[] type) {
        List<Integer> out = new ArrayList<>();
        double max = -1;
        PathType min = null;
        for (int j = 0; j < bw.length; j++) {
            if (bw[j] > max + SAME * Math.max(1, max) || Math.abs(bw[j] - max) <= SAME * Math.max(1, max)
                    && type[j].compareTo(min) < 0) {
                max = bw[j];
                min = type[j];
                out.clear();
            }
            if (Math.abs(bw[j] - max) <= SAME * Math.max(1, max) && type[j] == min) {
                out.add(j);
            }
        }
        return out;
    }

    /** topo.h mirrorBits: the low log2(pow2) bits reversed. */
    static int mirrorBits(int val, int pow2) {
        int mirror = 0;
        for (int b = 1, mb = pow2 >> 1; b < pow2; b <<= 1, mb >>= 1) {
            if ((val & b) != 0) {
                mirror |= mb;
            }
        }
        return mirror;
    }
}
