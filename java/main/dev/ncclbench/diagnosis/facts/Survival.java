package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Progress;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;
import dev.ncclbench.nccllog.SourceRef;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether the job went on after a failure line, from what its own process printed after it. NCCL prints an error
 * return ("include/net.h:24 -> 2") for every error on its way up, handled ones included: probing a NET plugin that is
 * not there, an IBext plugin told not to load (NCCL_IBEXT_DISABLE=1, "net.cc:79 -> 3"), a connect it retries. A line
 * followed by the job's normal progress on that process (Init COMPLETE, a connection, a chosen network) or by the
 * job's results table is one it survived. Never survived: a rendezvous failure, the application's own error line, a
 * WARN after the process completed init unless it completed another init after it, and any line of a rank that
 * started init and never completed it.
 */
final class Survival {
    private final NcclLogEvidence e;
    /** "host:pid" of processes that completed some init. */
    private final Set<String> completed;
    /** "host:pid:device" of ranks with an init that never completed ("Init START" and no "Init COMPLETE"). */
    private final Set<String> neverCompleted = new HashSet<>();
    /** NCCL source locations of error returns that some rank went on after: a handled error, wherever it shows. */
    private final Set<String> handledSites = new HashSet<>();

    Survival(NcclLogEvidence e, Set<String> completed) {
        this.e = e;
        this.completed = completed;
        e.ranks().stream().filter(r -> !r.initComplete())
                .forEach(r -> neverCompleted.add(r.host() + ':' + r.pid() + ':' + r.cudaDev()));
        for (Warning w : e.warnings()) {
            if (w.function().equals(FailureKind.ERROR_RETURN) && wentOn(w)) {
                handledSites.add(w.ncclFile() + ':' + w.ncclLine());
            }
        }
    }

    /**
     * A failure line the job went on after. An error return ("include/net.h:24 -> 2") is also one when another rank
     * went on after the same one (NET/OFI's "No NIC info" on every rank of an EFA job, the excerpt cut before some
     * ranks' next line).
     */
    boolean survived(Warning w) {
        if (wentOn(w)) {
            return true;
        }
        return w.function().equals(FailureKind.ERROR_RETURN) && !neverCompleted(w)
                && handledSites.contains(w.ncclFile() + ':' + w.ncclLine());
    }

    private boolean neverCompleted(Warning w) {
        return neverCompleted.contains(w.host() + ':' + w.pid() + ':' + w.device());
    }

    private boolean wentOn(Warning w) {
        if (afterTeardown(w)) {
            return true;
        }
        FailureKind k = FailureKind.of(w);
        if (k == FailureKind.BOOTSTRAP || k == FailureKind.RENDEZVOUS) {
            return false; // a failed rendezvous leaves some rank of the job without its communicator
        }
        if (w.pid() < 0 && w.ncclFile().isEmpty()) {
            return false; // the application's (or nccl-tests') own line about NCCL: what it says is the end
        }
        if (neverCompleted(w)) {
            return false; // a rank that started init and never completed it
        }
        if (w.pid() >= 0 && !w.afterInit() && completed.contains(w.host() + ':' + w.pid())) {
            return true; // NCCL warned during this process's init and completed it (fell back from DMA-BUF, ...)
        }
        List<Progress> ps = ranks(w);
        if (ps.stream().anyMatch(p -> later(p.lastInitComplete(), w))) {
            return true; // a communicator of this rank completed init after the line
        }
        boolean trace = w.function().equals(FailureKind.ERROR_RETURN);
        boolean retry = w.message().contains("retrying");
        if (w.afterInit() && !trace && !retry) {
            return false; // a failure after init
        }
        return ps.stream().anyMatch(p -> later(p.lastProgress(), w)) || w.pid() < 0 && anonymousProgress(w)
                || rowsAfter(w);
    }

    /**
     * The ranks that printed the line, in the file it was printed to: its own device's when the header names one, else
     * every rank of its process.
     */
    private List<Progress> ranks(Warning w) {
        if (w.source() == null || w.pid() < 0) {
            return List.of();
        }
        return e.progress().stream().filter(p -> p.pid() == w.pid() && p.host().equals(w.host())
                && (w.device().isEmpty() || p.device().equals(w.device()))
                && p.lastProgress() != null && p.lastProgress().file().equals(w.source().file())).toList();
    }

    /**
     * For an NCCL line pasted without its "host:pid:tid" header: a later line of the same file, also without a
     * process, that shows NCCL going on (a chosen network, a connection, Init COMPLETE).
     */
    private boolean anonymousProgress(Warning w) {
        return e.networks().stream().anyMatch(m -> m.kind().equals("network") && m.host().equals(w.host())
                && later(m.source(), w))
                || e.connections().stream().anyMatch(c -> c.host().equals(w.host()) && later(c.firstSeen(), w))
                || e.ranks().stream().anyMatch(r -> r.initComplete() && r.pid() < 0 && later(r.source(), w));
    }

    private static boolean later(SourceRef s, Warning w) {
        return s != null && w.source() != null && s.file().equals(w.source().file()) && s.line() > w.source().line();
    }

    /** nccl-tests result rows after the line in the same file: every rank ran the collectives after it. */
    private boolean rowsAfter(Warning w) {
        return e.measured().stream().anyMatch(r -> later(r.source(), w));
    }

    /**
     * Whether the warning came after its process destroyed every communicator it initialised, earlier in the same
     * file (NCCL 2.28 on one H200 warns "Cuda failure 'invalid device ordinal'" at exit after "Destroy COMPLETE" of a
     * run that measured every size right): the run was over by then.
     */
    private boolean afterTeardown(Warning w) {
        if (w.pid() < 0 || w.source() == null) {
            return false;
        }
        long inits = e.ranks().stream().filter(r -> r.initComplete() && r.host().equals(w.host())
                && r.pid() == w.pid()).count();
        long destroyed = e.topology().stream().filter(m -> m.kind().equals("destroyed")
                && m.host().equals(w.host()) && m.value().startsWith(w.pid() + " ")
                && m.source().file().equals(w.source().file()) && m.source().line() < w.source().line()).count();
        return inits > 0 && destroyed >= inits;
    }
}
