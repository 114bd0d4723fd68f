package dev.ncclbench.nccllog;

import java.util.Locale;

/** What a NET name ("Socket", "IB", "IBext_v8", "AWS Libfabric") says about the transport. */
public final class Networks {
    private Networks() {
    }

    public static boolean isSocket(String net) {
        return net.equalsIgnoreCase("Socket");
    }

    /** NCCL's own IB transport or an IB/RoCE verbs plugin that reports as such. */
    public static boolean isIb(String net) {
        String n = net.toUpperCase(Locale.ROOT);
        // gIB: Google's IB verbs plugin for RoCE on A3 Ultra / A4 ("Using network gIB")
        return n.startsWith("IB") || n.startsWith("ROCE") || n.equals("NCCL RDMA PLUGIN") || n.startsWith("MLX")
                || n.equals("GIB");
    }
}
