package dev.ncclbench.nccllog;

/**
 * Which network a process chose and which plugins it tried: "Using network IB" (2.3: "Using internal Network IB"),
 * "Initialized NET plugin IB", "Failed to initialize NET plugin IB", "Assigned NET plugin IB to comm" (2.28+),
 * "P2P plugin IBext", "Plugin Path : /opt/.../libnccl-net.so"; the GPU-initiated networking (GIN) and RMA plugins a
 * communicator got ("Assigned GIN plugin GIN_IB_GDAKI to comm" 2.29, "GIN/Plugin: Assigned plugin %s type %d to comm"
 * and "RMA/Plugin: Assigned plugin %s to comm" 2.30), which move device-initiated traffic, not the collectives' NET
 * path; and the environment plugin NCCL read its settings through ("ENV/Plugin: Using %s (v2)", "Successfully loaded
 * external env plugin %s", 2.28+), kept as the setting NCCL_ENV_PLUGIN.
 */
final class NetworkLines {
    private NetworkLines() {
    }

    static boolean parse(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        if (m.startsWith("Using network ") || m.startsWith("Using internal Network ")
                || m.startsWith("Using internal network ")) {
            acc.network("network", m.substring(m.lastIndexOf("etwork ") + 7).trim(), p.host, file, lineNo);
            acc.progress(p.host, p.pid, p.dev, file, lineNo, false);
            return true;
        }
        if (m.startsWith("Assigned GIN plugin ") || m.startsWith("GIN/Plugin: Assigned plugin ")
                || m.startsWith("RMA/Plugin: Assigned plugin ")) {
            String kind = m.startsWith("RMA") ? "rma" : "gin";
            acc.network(kind, Text.tokenAfter(m, "plugin "), p.host, file, lineNo);
            return true;
        }
        if (m.startsWith("ENV/Plugin: Using ") || m.startsWith("Successfully loaded external env plugin ")) {
            String name = m.startsWith("ENV/") ? Text.tokenAfter(m, "Using ") : Text.tokenAfter(m, "env plugin ");
            acc.env("NCCL_ENV_PLUGIN", name, NcclLogEvidence.EnvSetting.FROM_NCCL, file, lineNo);
            return true;
        }
        int plug = m.indexOf("NET plugin ");
        if (plug >= 0) {
            String kind = m.startsWith("Failed") ? "plugin-failed" : m.startsWith("Assigned") ? "network" : "plugin";
            String name = m.substring(plug + 11);
            int to = name.indexOf(" to comm");
            acc.network(kind, to >= 0 ? name.substring(0, to) : name.trim(), p.host, file, lineNo);
            if (kind.equals("network")) {
                acc.progress(p.host, p.pid, p.dev, file, lineNo, false);
            }
            return true;
        }
        if (m.startsWith("P2P plugin ") || m.startsWith("Plugin Path")) {
            acc.network("plugin", m, p.host, file, lineNo);
            return true;
        }
        return false;
    }
}
