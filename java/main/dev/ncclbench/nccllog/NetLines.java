package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.Interface;

/**
 * "NET/..." INFO lines: the devices a network lists ("NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB
 * eth0:10.0.0.1<0>", 2.3's "NET/IB: [0] mlx5_1:1/IB"), merged NICs ("Made virtual device"), NET/Socket's interfaces,
 * "No device found", NET/Plugin lines,
 * and the per-HCA (per-GPU before 2.12) "GPU Direct RDMA Enabled/Disabled" lines.
 */
final class NetLines {
    private NetLines() {
    }

    static boolean parse(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        int sep = m.indexOf(':');
        String network = (sep > 4 ? m.substring(4, sep) : m.substring(4)).trim();
        int sp = network.indexOf(' ');
        if (sp >= 0) {
            network = network.substring(0, sp);
        }
        if (m.indexOf("GPU Direct RDMA") >= 0) {
            return gdr(p, m, network, file, lineNo, acc);
        }
        if (m.indexOf("No device found") >= 0) {
            acc.noNetDevice(network, p.host, file, lineNo);
            return true;
        }
        int prov = m.indexOf("elected provider is ");
        if (prov < 0) {
            prov = m.indexOf("elected Provider is ");
        }
        if (prov >= 0) {
            // aws-ofi-nccl: "NET/OFI Selected Provider is efa (found 4 nics)", "Selected provider is efa, fabric is efa"
            String v = Text.tokenAfter(m, "rovider is ");
            acc.network("provider", v.endsWith(",") ? v.substring(0, v.length() - 1) : v, p.host, file, lineNo);
            return true;
        }
        if (m.endsWith(" plugin initialized") && sep < 0) {
            acc.network("plugin", network, p.host, file, lineNo); // "NET/GPUDirectTCPX plugin initialized"
            return true;
        }
        int loaded = m.indexOf("Loaded net plugin ");
        if (loaded >= 0) {
            // "NET/Plugin: Loaded net plugin Libfabric (v10)" (2.19-2.27): the external plugin NCCL tries first
            String name = m.substring(loaded + 18);
            int v = name.lastIndexOf(" (v");
            acc.network("plugin", (v > 0 ? name.substring(0, v) : name).trim(), p.host, file, lineNo);
            return true;
        }
        if (network.equals("Plugin") || m.startsWith("NET/Plugin")) {
            acc.network("plugin", m, p.host, file, lineNo);
            return true;
        }
        if (network.equals("Socket")) {
            int u = m.indexOf("Using ");
            if (u >= 0) {
                for (Interface i : InterfaceLists.parse(m.substring(u + 6), p.host, "", new SourceRef(file, lineNo))) {
                    acc.socketInterface(i, p.pid);
                }
                return true;
            }
            return m.indexOf("no socket interface") >= 0;
        }
        int made = m.indexOf("Made virtual device [");
        if (made >= 0) {
            // "NET/IB : Made virtual device [8] name=mlx5_0+mlx5_1 speed=800000 ndevs=2" (2.21+): channel lines name
            // the merged NIC by its own number; a one-port virtual device has its port's number, nothing to keep
            int idx = (int) Text.leadingInt(m, made + 21, m.length());
            String name = Text.tokenAfter(m, "name=");
            if (idx >= 0 && name.indexOf('+') > 0) {
                acc.network("vnic", network + " " + idx + " " + name, p.host, file, lineNo);
            }
            return true;
        }
        if (devices(p, m, network, sep, file, lineNo, acc)) {
            return true;
        }
        if (!network.isEmpty() && !network.startsWith("IB") && !network.startsWith("MLX")
                && Character.isLetter(network.charAt(0))) {
            // a network plugin's own line ("NET/OFI Initializing aws-ofi-nccl 1.12.1", "NET/GPUDirectTCPX ver. 3.1.9"):
            // the plugin NCCL loaded, named by itself
            acc.network("plugin", network, p.host, file, lineNo);
            return true;
        }
        return false;
    }

    private static boolean devices(LineParser.Parsed p, String m, String network, int sep, String file, long lineNo,
                                   Accumulator acc) {
        int u = m.indexOf("Using ");
        int start = u >= 0 ? u + 6 : (sep >= 0 && m.indexOf('[', sep) >= 0 ? sep + 1 : -1);
        if (start < 0) {
            return false;
        }
        int semi = m.indexOf(';', start);
        String devs = semi >= 0 ? m.substring(start, semi) : m.substring(start);
        int pendingIndex = -1;
        boolean anyDev = false;
        for (String tok : devs.trim().split("\\s+")) {
            if (tok.isEmpty()) {
                continue;
            }
            int idx = pendingIndex;
            String t = tok;
            if (t.startsWith("[")) {
                int close = t.indexOf(']');
                if (close < 0) {
                    continue;
                }
                String inside = t.substring(1, close);
                t = t.substring(close + 1);
                if (!LineParser.digits(inside, 0, inside.length())) {
                    continue; // [RO], [PCIe]...
                }
                idx = Integer.parseInt(inside);
                if (t.isEmpty()) {
                    pendingIndex = idx;
                    continue;
                }
            }
            pendingIndex = -1;
            int colon = t.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = t.substring(0, colon);
            if (t.indexOf('<', colon) >= 0 || t.indexOf('.', colon) >= 0) {
                // "NET/GPUDirectTCPX : Using [0]eth1:10.0.1.2<0>": a plugin's socket interface, not an RDMA device
                acc.network("plugin-interface", network + " " + name, p.host, file, lineNo);
                anyDev = true;
                continue;
            }
            int slash = t.indexOf('/', colon);
            int port = (int) Text.leadingInt(t, colon + 1, slash < 0 ? t.length() : slash);
            String link = "";
            if (slash >= 0) {
                String after = t.substring(slash + 1);
                int s2 = after.indexOf('/');
                link = s2 >= 0 ? after.substring(0, s2) : after;
            }
            acc.netDevice(p.host, network, idx, name, port, link, file, lineNo);
            anyDev = true;
        }
        if (semi >= 0) {
            int oob = m.indexOf("OOB ", semi);
            if (oob >= 0) {
                for (Interface i : InterfaceLists.parse(m.substring(oob + 4), p.host, "oob:",
                        new SourceRef(file, lineNo))) {
                    acc.bootstrap(i, p.pid);
                }
            }
        }
        return anyDev || semi >= 0;
    }

    /** "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'", "GPU Direct RDMA (DMABUF) enabled for HCA ...". */
    static boolean gdr(LineParser.Parsed p, String m, String network, String file, long lineNo, Accumulator acc) {
        boolean disabled = m.indexOf("Disabled") >= 0 || m.indexOf("disabled") >= 0;
        boolean enabled = !disabled && (m.indexOf("Enabled") >= 0 || m.indexOf("enabled") >= 0);
        if (!disabled && !enabled) {
            return false;
        }
        int hca = (int) Text.intAfter(m, "HCA ", -1);
        String name = "";
        int q = m.indexOf('\'');
        if (q >= 0) {
            int q2 = m.indexOf('\'', q + 1);
            if (q2 > q) {
                name = m.substring(q + 1, q2);
            }
        }
        acc.gdr(p.host, network, hca, name, enabled, m.indexOf("DMABUF") >= 0 || m.indexOf("DMA-BUF") >= 0, m,
                file, lineNo);
        return true;
    }
}
