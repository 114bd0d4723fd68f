package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence.RankInfo;

import java.util.List;

/** Ranks that started init and never printed Init COMPLETE: a cut log, or ranks that hung or died. */
public final class InitNotComplete extends BaseRule<Facts> {
    public InitNotComplete() {
        super("INIT-NOT-COMPLETE", Severity.WARNING,
                "ranks started init without 'Init COMPLETE' (a cut log, or ranks that hang or died in init)");
    }

    @Override
    public List<Finding> check(Facts f) {
        if (f.evidence().ranks().isEmpty() || f.initFailure()) {
            return List.of();
        }
        List<RankInfo> open = f.evidence().ranks().stream().filter(r -> !r.initComplete()).toList();
        if (open.isEmpty()) {
            return List.of();
        }
        if (f.initStall().any()) {
            // peers of the same job got through init: these ranks stopped there, the job with them
            List<RankInfo> stalled = f.initStall().stalled();
            return List.of(finding(Severity.ERROR, f.initStall().sentence(),
                    "Init is collective: the ranks that completed it waited for their peers, so ranks that never"
                            + " completed it hung or died in init (or the log was cut just there).",
                    stalled.stream().limit(6).map(InitNotComplete::started).toList(),
                    List.of("find the first of these ranks that stopped: its host's own log, dmesg, and"
                                    + " `py-spy dump --pid PID` or `gdb -p PID -batch -ex 'thread apply all bt'` on a"
                                    + " hung process",
                            "rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,NET and keep every rank's log"
                                    + " (NCCL_DEBUG_FILE=/path/nccl.%h.%p)"),
                    References.NET_DOC));
        }
        return List.of(finding(Severity.WARNING,
                open.size() + " rank init(s) started without 'Init COMPLETE'",
                "Either the log was cut before the end of init, or these ranks hang or died during init.",
                open.stream().limit(6).map(InitNotComplete::started).toList(),
                List.of("check that the log is complete; if ranks hang at init see the NCCL-hang runbook"),
                References.NET_DOC));
    }

    private static String started(RankInfo r) {
        return r.source() + ": rank " + r.rank() + "/" + r.nranks() + " on " + r.host() + " pid " + r.pid() + " Init START";
    }
}
