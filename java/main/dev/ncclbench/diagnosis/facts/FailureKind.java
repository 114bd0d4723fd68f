package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.Locale;

/**
 * The family of a WARN (or of an error line printed about NCCL), read from NCCL's own format strings: which
 * failure it reports, that it is a known warning that is no failure, or that this tool does not know it.
 */
public enum FailureKind {
    /** "Bootstrap : no socket interface found" (bootstrap.cc). */
    BOOTSTRAP,
    /**
     * The bootstrap rendezvous failed (bootstrap.cc): "Bootstrap Root : rank 3 of 8 ranks has already checked in" (two
     * processes claim one rank, or two jobs share one root), "mismatch in info from procs" / "in rank count" (the
     * processes disagree on the job size), "Message truncated" there, an invalid NCCL_COMM_ID.
     */
    RENDEZVOUS,
    /** A peer went away: "Connection closed by remote peer", "Connection reset by peer", "Socket recv failed". */
    PEER_LOST,
    /** A connection could not be made: refused, timed out, unreachable, bootstrap timeouts. */
    CONNECT,
    /** "NET/IB : Got completion from peer ... with status=N" / "with error N": an RDMA transfer failed. */
    IB_COMPLETION,
    /** An ibv_* call failed, an IB async fatal event. */
    VERBS,
    /** "Cuda failure 'out of memory'", "Failed to CUDA calloc", cudaError..., "unhandled cuda error". */
    CUDA,
    /** A NET plugin failed to initialise or failed inside (NET/OFI, TCPX, FasTrak, "Failed to initialize NET plugin"). */
    PLUGIN,
    /** Socket set-up errors: "ncclSocketInit ... family", address lookups, no interface in the subnet. */
    SOCKET,
    /** Async errors and aborts: ncclRemoteError, ncclSystemError, ncclInternalError, "Abort", watchdog timeouts. */
    ASYNC,
    /** Another failure NCCL or the application reported ("NCCL error", "unhandled system error", error returns). */
    ERROR,
    /**
     * A NET plugin's progress function says a transfer is slow and goes on (GPUDirect-TCPX's tcpxCommProgress "nic 0,
     * eth1, ... rx ctrl timeout cnt 1, nanos 500001359": a control message waited past its threshold). No failure.
     */
    SLOW_PROGRESS,
    /** A WARN NCCL prints and carries on after, which other rules explain (CollNet unavailable, no libibverbs...). */
    KNOWN,
    /** A WARN this tool does not interpret. */
    NONE;

    /** The function the reader gives NCCL's error-return trace lines (nccllog's WarnLines.ERROR_RETURN). */
    public static final String ERROR_RETURN = "error return";

    /** Whether lines of this family mean the job (or a part of it) failed. */
    public boolean failure() {
        return this != KNOWN && this != NONE && this != SLOW_PROGRESS;
    }

    public static FailureKind of(Warning w) {
        String lower = w.message().toLowerCase(Locale.ROOT);
        String file = w.ncclFile();
        if (w.function().equals(ERROR_RETURN)) {
            return ERROR; // "misc/socket.cc:564 -> 2": where an error travelled, not what it was
        }
        if (lower.contains("no socket interface found")) {
            return BOOTSTRAP;
        }
        if (rendezvous(lower, file)) {
            return RENDEZVOUS;
        }
        if (known(lower)) {
            return KNOWN;
        }
        if (lower.contains("ctrl timeout cnt") || w.function().contains("CommProgress") && lower.contains("timeout")
                && !lower.contains("fail") && !lower.contains("error")) {
            return SLOW_PROGRESS; // before the connect family: a counted "timeout" here is a slow transfer
        }
        if (lower.contains("got completion from peer") || lower.contains("completion with error")
                || lower.contains("vendor err") || lower.contains("vendor_err")) {
            return IB_COMPLETION;
        }
        if (lower.contains("ibv_") || lower.contains("async fatal event") || lower.contains("async error event")) {
            return VERBS; // before the socket families: "ibv_modify_qp failed with 110 Connection timed out"
        }
        if (lower.contains("connection closed") || lower.contains("connection reset") || lower.contains("broken pipe")
                || lower.contains("remote process exited") || lower.contains("socket recv failed")
                || lower.contains("recv failed") || lower.contains("message truncated")
                || lower.contains("peer closed") || lower.contains("closed by remote")
                || lower.contains("considered dead")) {
            return PEER_LOST;
        }
        if (lower.contains("watchdog caught collective operation timeout") || lower.contains("collective operation timeout")) {
            return ASYNC; // PyTorch's watchdog: a collective that ran and never finished, not a connect
        }
        if (lower.contains("connection refused") || lower.contains("timed out") || lower.contains("timeout")
                || lower.contains("no route to host") || lower.contains("network is unreachable")
                || lower.contains("connect to") && lower.contains("failed") || lower.contains("socketfinalizeaccept")
                || lower.contains("wrong type") || lower.contains("exceeded error retry count")
                || lower.contains("retrying")) {
            return CONNECT;
        }
        if (lower.contains("ibv_") || lower.contains("async fatal event") || lower.contains("async error event")
                || file.contains("net_ib") || file.contains("ibvwrap")) {
            return VERBS;
        }
        if (lower.contains("cuda failure") || lower.contains("cuda calloc") || lower.contains("cudaerror")
                || lower.contains("cuda error") || lower.contains("unhandled cuda error") || lower.contains("out of memory")
                || lower.contains("cuda_error") || lower.contains("ncclunhandledcudaerror")) {
            return CUDA;
        }
        if (lower.contains("net/ofi") || lower.contains("tcpx") || lower.contains("fastrak")
                || lower.contains("failed to initialize net plugin") || lower.contains("failed to initialize any net")
                || lower.contains("plugin") && (lower.contains("fail") || lower.contains("error"))) {
            return PLUGIN;
        }
        if (lower.contains("ncclsocketinit") || lower.contains("neither af_inet") || lower.contains("getting address info")
                || lower.contains("socket creation failed") || lower.contains("address family not supported")
                || lower.contains("no interface found in the same subnet") || lower.contains("unsupported ip family")
                || lower.contains("no valid") && lower.contains("pair found")) {
            return SOCKET;
        }
        if (lower.contains("ncclremoteerror") || lower.contains("remote error") || lower.contains("ncclsystemerror")
                || lower.contains("ncclinternalerror") || lower.contains("abort") || lower.contains("watchdog")
                || lower.contains("ncclinvalidusage") || lower.contains("ncclinvalidargument")
                || lower.contains("in abort state") || lower.contains("failed to execute operation")
                || lower.contains("error encountered progressing") || lower.contains("could not receive type")) {
            return ASYNC;
        }
        if (file.contains("bootstrap") && !lower.contains("ignoring")) {
            return RENDEZVOUS; // any other bootstrap.cc WARN: the rendezvous did not complete
        }
        if (file.isEmpty() || lower.contains("unhandled system error") || lower.contains("internal error")
                || lower.contains("invalid usage")) {
            return ERROR;
        }
        return NONE;
    }

    /** The root's own messages and the bootstrap set-up errors, wherever they come (bootstrap.cc, older files). */
    private static boolean rendezvous(String lower, String file) {
        if (lower.contains("has already checked in") || lower.startsWith("bootstrap root")
                || lower.contains("mismatch in info from procs") || lower.contains("mismatch in rank count")
                || lower.contains("invalid nccl_comm_id") || lower.contains("verify nccl_oob_net_ifname")
                || lower.contains("should not be called when nccl_comm_id")) {
            return true;
        }
        return false;
    }

    /** WARNs NCCL prints and then carries on: the path rules explain what they cost. */
    private static boolean known(String lower) {
        return lower.contains("cannot initialize collnet") || lower.contains("failed to open libibverbs")
                || lower.contains("plugin load returned") || lower.contains("no plugin found")
                || lower.contains("could not find real path") || lower.contains("gpu direct rdma")
                || lower.contains("gdr disabled on")
                || lower.contains("p2p is disabled between nvlink") || lower.contains("collnet is not supported")
                || lower.contains("continue without profiler") || lower.contains("nvls multicast support is not")
                || lower.contains("numa auto balancing") || lower.contains("iommu=pt")
                || lower.contains("non-fatal async event")
                || lower.contains("got async event") && (lower.contains("gid table change")
                || lower.contains("client reregister") || lower.contains("lid change") || lower.contains("port active")
                || lower.contains("sm change"));
    }
}
