package dev.ncclbench.launch;

import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This node's name, the one source for it in the project. NCCL takes the kernel's host name (gethostname(2), no
 * DNS) cut at the first dot (its %h and its host hashes); a scheduler knows the node by the name it started the
 * job on (Slurm: SLURMD_NODENAME, the name {@code scontrol} accepts). {@code InetAddress.getLocalHost()} is not
 * used first because it needs the name to resolve, and falls back to "localhost" where it does not.
 */
public final class HostName {
    private static final Path KERNEL = Path.of("/proc/sys/kernel/hostname");

    private HostName() {
    }

    /** The kernel's host name cut at the first dot, as NCCL writes it. */
    public static String kernel() {
        return kernel(false);
    }

    /** The kernel's host name, whole when {@code full}, else cut at the first dot. */
    public static String kernel(boolean full) {
        String name = readKernel();
        if (name.isEmpty()) {
            name = resolverName();
        }
        int dot = name.indexOf('.');
        return full || dot <= 0 ? name : name.substring(0, dot);
    }

    /**
     * The name a person and a scheduler know this node by: {@code override} (--node-name) when given, else
     * SLURMD_NODENAME under Slurm, else {@link #kernel()}.
     */
    public static String node(String override, Host host) {
        if (override != null && !override.isBlank()) {
            return override.strip();
        }
        String slurm = host.get(Variable.SLURMD_NODENAME);
        if (slurm != null && !slurm.isBlank() && host.has(Variable.SLURM_JOB_ID)) {
            return slurm.strip();
        }
        return kernel();
    }

    private static String readKernel() {
        try {
            return Files.readString(KERNEL, StandardCharsets.US_ASCII).strip();
        } catch (IOException | SecurityException e) {
            return ""; // not Linux: the resolver below
        }
    }

    /** Where /proc is not there: Java's own gethostname, which on failure to resolve still names the host. */
    private static String resolverName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            // "name: name: Name or service not known": the kernel's name is the part before the first colon
            String m = e.getMessage();
            int colon = m == null ? -1 : m.indexOf(':');
            return colon > 0 ? m.substring(0, colon).strip() : "localhost";
        }
    }
}
