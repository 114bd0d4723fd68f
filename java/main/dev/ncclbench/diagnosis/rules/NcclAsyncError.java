package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;
import java.util.Locale;

/** Async errors and aborts: ncclRemoteError, ncclSystemError, ncclInternalError, "Abort", watchdog timeouts. */
public final class NcclAsyncError extends FailureFamilyRule {
    public NcclAsyncError() {
        super("NCCL-ASYNC-ERROR",
                "a communicator failed asynchronously or was aborted (ncclRemoteError, ncclSystemError,"
                + " ncclInternalError, Abort, watchdog timeout)");
    }

    @Override
    FailureKind kind() {
        return FailureKind.ASYNC;
    }

    @Override
    String title() {
        return "a communicator failed or was aborted";
    }

    @Override
    String detail(List<Warning> lines) {
        String all = lines.toString().toLowerCase(Locale.ROOT);
        String what = all.contains("remoteerror") || all.contains("remote error")
                ? " ncclRemoteError means another rank (or the network) failed: its log holds the cause."
                : all.contains("watchdog") || all.contains("timeout")
                ? " A watchdog timeout means a collective never completed: a rank hung or never joined." : "";
        return "NCCL reported an error from its proxy or network thread, or the application aborted the"
                + " communicator after one." + what + " Later lines are ranks giving up; the first WARN is the cause.";
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        return List.of("find the earliest WARN across every rank's log (NCCL_DEBUG_FILE=/tmp/nccl.%h.%p)",
                "a rank that died (OOM, Xid, kill) shows up as ncclRemoteError on its peers",
                "hangs: NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL and compare the last collective each rank entered");
    }

    @Override
    String reference() {
        return References.NET_DOC;
    }
}
