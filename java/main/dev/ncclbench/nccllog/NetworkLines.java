package dev.ncclbench.nccllog;

/**
 * Which network a process chose and which plugins it tried: "Using network IB" (2.3: "Using internal Network IB"),
 * "Initialized NET plugin IB", "Failed to initialize NET plugin IB", "Assigned NET plugin IB to comm" (2.28+),
 * "P2P plugin IBext", "Plugin Path : /opt/.../libnccl-net.so".
 */
final class NetworkLines {
    private NetworkLines() {
    }

    static boolean parse(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        if (m.startsWith("Using network ") || m.startsWith("Using internal Network ")
                || m.startsWith("Using internal network ")) {
            acc.network("network", m.substring(m.lastIndexOf("etwork ") + 7).trim(), p.host, file, lineNo);
            return true;
        }
        int plug = m.indexOf("NET plugin ");
        if (plug >= 0) {
            String kind = m.startsWith("Failed") ? "plugin-failed" : m.startsWith("Assigned") ? "network" : "plugin";
            String name = m.substring(plug + 11);
            int to = name.indexOf(" to comm");
            acc.network(kind, to >= 0 ? name.substring(0, to) : name.trim(), p.host, file, lineNo);
            return true;
        }
        if (m.startsWith("P2P plugin ") || m.startsWith("Plugin Path")) {
            acc.network("plugin", m, p.host, file, lineNo);
            return true;
        }
        return false;
    }
}
