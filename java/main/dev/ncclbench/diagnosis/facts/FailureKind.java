package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.Locale;

/** What a WARN (or an error line about NCCL) means, when it means a failure. */
public enum FailureKind {
    BOOTSTRAP, CONNECTION, VERBS, ERROR,
    /** Not a failure this tool recognises: an ordinary warning, or one it does not interpret. */
    NONE;

    public static FailureKind of(Warning w) {
        String m = w.message();
        String lower = m.toLowerCase(Locale.ROOT);
        if (lower.contains("no socket interface found")) {
            return BOOTSTRAP;
        }
        if (lower.contains("connection refused") || lower.contains("connection reset")
                || lower.contains("timed out") || lower.contains("timeout") || lower.contains("connect to")
                && lower.contains("failed") || lower.contains("socketfinalizeaccept") || lower.contains("wrong type")
                || lower.contains("remote process exited") || lower.contains("broken pipe")) {
            return CONNECTION;
        }
        if (lower.contains("ibv_") || lower.contains("got completion") || w.ncclFile().contains("net_ib")
                || lower.contains("completion with error") || lower.contains("vendor err")) {
            return VERBS;
        }
        if (w.ncclFile().isEmpty() || lower.contains("unhandled system error") || lower.contains("ncclsystemerror")
                || lower.contains("internal error")) {
            return ERROR;
        }
        return NONE;
    }
}
