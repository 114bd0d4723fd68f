package dev.ncclbench.diagnosis;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.nccllog.Networks;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.diagnosis.rules.ExplainRules;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.nccllog.NcclLogEvidence;

import java.util.List;
import java.util.Set;

/**
 * Judges a log: {@link Facts} from the evidence, then every rule of {@link ExplainRules#book()}, then the health
 * from what the rules say. Pure: the same evidence gives the same diagnosis.
 */
public final class Diagnoser {
    private Diagnoser() {
    }

    public static Diagnosis diagnose(NcclLogEvidence e) {
        return diagnose(e, ExplainRules.book(), Set.of());
    }

    /** Without the findings of the ignored rule ids (`explain --ignore`): they no longer count for the health. */
    public static Diagnosis diagnose(NcclLogEvidence e, Set<String> ignored) {
        return diagnose(e, ExplainRules.book(), ignored);
    }

    public static Diagnosis diagnose(NcclLogEvidence e, RuleBook<Facts> book, Set<String> ignored) {
        Facts f = Facts.of(e);
        List<Finding> findings = book.run(f, ignored);
        Health health = health(f, book, findings);
        return new Diagnosis(f.path(), health, f.overall().confidence(), reason(f, health), e.hosts().size(),
                f.nranks(), f.pairs(), f.nicLoads(), findings, f.overall().evidence());
    }

    private static Health health(Facts f, RuleBook<Facts> book, List<Finding> findings) {
        if (f.initFailure()) {
            return Health.INIT_FAILED;
        }
        if (f.runFailure()) {
            return Health.RUN_FAILED;
        }
        if (f.initStall().any()) {
            return Health.INIT_FAILED; // no WARN, but ranks of the job never got through init
        }
        if (f.path() == RouteKind.UNKNOWN) {
            return Health.NO_EVIDENCE;
        }
        return book.degrades(findings) ? Health.DEGRADED : Health.HEALTHY;
    }

    /** The network's name, with the fabric NET/IB really drives: RoCE devices say RoCE, not IB. */
    private static String fabric(Facts f) {
        String name = f.overall().network();
        if (f.path() == RouteKind.PLUGIN_NET) {
            String served = f.pluginFabric(name);
            return served.isEmpty() ? name : name + ", " + served; // judged against the fabric the plugin serves
        }
        if (!Networks.isIb(name)) {
            return name;
        }
        var links = f.evidence().netDevices().stream().map(d -> d.linkLayer().toUpperCase(java.util.Locale.ROOT))
                .filter(l -> !l.isEmpty()).distinct().toList();
        boolean roce = links.contains("ROCE") || f.evidence().hostRdma().stream()
                .anyMatch(m -> m.kind().equals("link-layer") && m.value().equalsIgnoreCase("Ethernet"));
        boolean ib = links.contains("IB");
        return roce && !ib ? name + ", RoCE" : roce ? name + ", IB and RoCE" : ib ? name + ", InfiniBand" : name;
    }

    private static String reason(Facts f, Health h) {
        if (h == Health.INIT_FAILED && f.firstFailure().isEmpty()) {
            return "NCCL's init did not finish: " + f.initStall().sentence() + "; they hung or died in init (or the"
                    + " log was cut there).";
        }
        if (h == Health.INIT_FAILED) {
            return "NCCL failed before any collective ran: " + f.firstFailure() + ".";
        }
        if (h == Health.RUN_FAILED) {
            return "NCCL initialised, then failed: " + f.firstFailure() + ".";
        }
        if (f.path() == RouteKind.UNKNOWN) {
            if (f.evidence().counts().ncclLines() == 0) {
                return "The input holds no NCCL output.";
            }
            if (f.multiNode()) {
                return "The log shows " + f.evidence().hosts().size() + " hosts but no line about the network between"
                        + " them, so the inter-node path is unknown; rerun with NCCL_DEBUG=INFO"
                        + " NCCL_DEBUG_SUBSYS=INIT,NET.";
            }
            var chosen = f.chosenNetwork();
            if (chosen.isPresent() && f.oneHost()) {
                // "initialised, unused": IB and Socket come up on one host too and carry nothing there
                return "NCCL initialised network " + chosen.get().value() + ", but the log shows one host and no"
                        + " connection line: that network carries nothing between GPUs of one node, and the"
                        + " intra-node path (P2P, SHM, NVLS) is not in the log; rerun with NCCL_DEBUG=INFO"
                        + " NCCL_DEBUG_SUBSYS=INIT,NET to see it.";
            }
            return "The log names no connection; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.";
        }
        // sockets: the description already names NET/Socket
        String net = f.path().interNode() && f.path() != RouteKind.SOCKET && !f.overall().network().isEmpty()
                ? " (" + fabric(f) + ")" : "";
        return f.path().description + net + onSomeHosts(f) + ", " + f.overall().basis() + ".";
    }

    /** " on 2 of 1024 host(s)" where the worst path is some named hosts' only: a job is as slow as its worst link. */
    private static String onSomeHosts(Facts f) {
        if (!f.path().interNode()) {
            return "";
        }
        int on = f.hostRoutes().hostsOn(f.path(), f.evidence()).size();
        int named = f.hostRoutes().namedHosts();
        return on > 0 && on < named ? " on " + on + " of " + named + " host(s)" : "";
    }
}
