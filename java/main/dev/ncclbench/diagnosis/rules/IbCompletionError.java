package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * "NET/IB : Got completion from peer 10.0.0.2<45678> with status=12 opcode=0 len=0 vendor err 129 (Send)" (2.19+;
 * "with error 12, opcode ..." before; "status=IBV_WC_RETRY_EXC_ERR(12)" in 2.30): an RDMA transfer failed, and the
 * ibv_wc_status says how.
 */
public final class IbCompletionError extends FailureFamilyRule {
    /** ibv_wc_status, in the enum's order (infiniband/verbs.h; NCCL's include/ibvcore.h). */
    static final String[] STATUS = {"IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR",
            "IBV_WC_LOC_EEC_OP_ERR", "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR",
            "IBV_WC_BAD_RESP_ERR", "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR",
            "IBV_WC_REM_OP_ERR", "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR",
            "IBV_WC_REM_INV_RD_REQ_ERR", "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR",
            "IBV_WC_FATAL_ERR", "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR"};

    public IbCompletionError() {
        super("IB-COMPLETION-ERROR",
                "an IB/RoCE transfer completed with an error status (retry exceeded, remote access error, flush...)");
    }

    @Override
    FailureKind kind() {
        return FailureKind.IB_COMPLETION;
    }

    @Override
    String title() {
        return "an InfiniBand/RoCE transfer completed with an error";
    }

    /** The status number in any era's wording, or -1. */
    static int status(String message) {
        for (String key : new String[] {"status=", "with error ", "("}) {
            int i = message.indexOf(key);
            while (i >= 0) {
                int s = i + key.length();
                int e = s;
                while (e < message.length() && Character.isDigit(message.charAt(e))) {
                    e++;
                }
                if (e > s && e - s < 3) {
                    int v = Integer.parseInt(message.substring(s, e));
                    if (!key.equals("(") || e < message.length() && message.charAt(e) == ')' && i > 0
                            && message.charAt(i - 1) == 'R') {
                        return v;
                    }
                }
                i = key.equals("(") ? message.indexOf(key, i + 1) : -1;
            }
        }
        return -1;
    }

    /** What a status usually means on a cluster. */
    static String meaning(int status) {
        return switch (status) {
            case 12 -> "retry exceeded: the link or the peer is down (cable, switch port, a peer that died), or a"
                    + " RoCE path that drops packets (PFC/ECN misconfigured)";
            case 13 -> "receiver not ready, retries exceeded: the peer stopped posting receives (it hung or died)";
            case 10 -> "remote access error: the peer refused the memory access (memory registration, GPUDirect"
                    + " without nvidia_peermem/DMA-BUF on the peer)";
            case 4, 8 -> "local protection/access error: memory registration of this rank's buffer (memlock, GDR)";
            case 5 -> "flushed: the queue pair broke after an earlier error; the first non-flush status is the cause";
            case 9, 11, 15 -> "the peer rejected the request: mismatched NCCL versions or a corrupted connection";
            case 20 -> "response timeout: the peer or the fabric stopped answering";
            case 16 -> "the peer aborted the operation";
            case 19, 21 -> "fatal or general HCA error: check dmesg and the HCA firmware";
            default -> "see ibv_wc_status_str(3)";
        };
    }

    @Override
    String detail(List<Warning> lines) {
        Set<String> statuses = new LinkedHashSet<>();
        for (Warning w : lines) {
            int s = status(w.message());
            if (s >= 0 && s < STATUS.length) {
                statuses.add(STATUS[s] + " (" + s + "): " + meaning(s));
            }
        }
        return "NCCL's IB transport polled a completion with an error status (transport/net_ib.cc)."
                + (statuses.isEmpty() ? "" : " " + String.join("; ", statuses) + ".");
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        List<String> r = new ArrayList<>();
        boolean retry = lines.stream().anyMatch(w -> status(w.message()) == 12 || status(w.message()) == 13);
        if (retry) {
            r.add("ibstat | grep -E 'State:|Physical state:'   # on both nodes: Active/LinkUp");
            r.add("perfquery -x; ibdiagnet   # symbol/link errors on the path between the two hosts named");
            r.add("RoCE: check PFC/ECN on the switch and the NIC (mlnx_qos -i <nic>); a lossy path exceeds retries");
        }
        r.add("read the peer's log: if it died first (OOM, CUDA error), this error is the consequence");
        r.add("raise NCCL_IB_TIMEOUT (default 20, i.e. 4.096 us x 2^20) only after the fabric is known good");
        return r;
    }

    @Override
    String reference() {
        return References.NET_DOC;
    }
}
