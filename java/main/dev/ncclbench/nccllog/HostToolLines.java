package dev.ncclbench.nccllog;

/**
 * RDMA devices that host tools print, pasted next to the log: ibstat's "CA 'mlx5_0'" and "Link layer: InfiniBand",
 * ibv_devinfo's "hca_id: mlx5_0". What the host has, not what NCCL saw.
 */
final class HostToolLines {
    private HostToolLines() {
    }

    static boolean parse(String l, int s, String file, long lineNo, Accumulator acc) {
        if (l.charAt(s) == 'C' && l.startsWith("CA '", s)) {
            int q = l.indexOf('\'', s + 4);
            if (q > s + 4) {
                acc.hostRdma("ibstat-ca", l.substring(s + 4, q), file, lineNo);
                return true;
            }
            return false;
        }
        int ll = l.indexOf("Link layer:");
        if (ll >= 0) {
            acc.hostRdma("link-layer", l.substring(ll + 11).trim(), file, lineNo);
            return true;
        }
        int h = l.indexOf("hca_id:");
        if (h >= 0) {
            acc.hostRdma("ibv-device", l.substring(h + 7).trim(), file, lineNo);
            return true;
        }
        return false;
    }
}
