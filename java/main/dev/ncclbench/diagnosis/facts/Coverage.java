package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence.Connection;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Why a path read from connection lines is not certain: hosts that logged without NET connection lines of their
 * own, ranks that did not log at all, WARN lines nobody explains. Empty when nothing stands against it.
 */
final class Coverage {
    private Coverage() {
    }

    static String doubt(Facts f) {
        List<String> why = new ArrayList<>();
        if (f.net().isEmpty() && f.hostRoutes().lines() == 0) {
            return others(f, why);
        }
        Set<String> withNet = new LinkedHashSet<>();
        for (Connection c : f.net()) {
            withNet.add(c.host());
        }
        withNet.addAll(f.hostRoutes().byHost().keySet()); // every host's NET lines, also those past the list's cap
        if (withNet.contains("") && f.evidence().hosts().isEmpty()) {
            // certain means lines of the path's transport on the hosts named: pasted lines without a header name none
            why.add("its NET connection lines name no host");
        }
        List<String> silent = f.evidence().hosts().stream().filter(h -> !withNet.contains(h)).toList();
        if (!silent.isEmpty() && !withNet.contains("")) {
            why.add("no NET connection line from " + String.join(", ", silent.stream().limit(4).toList())
                    + (silent.size() > 4 ? " and " + (silent.size() - 4) + " more host(s)" : ""));
        }
        return others(f, why);
    }

    private static String others(Facts f, List<String> why) {
        if (f.nranks() > 0 && f.ranksLogged() > 0 && f.ranksLogged() < f.nranks()) {
            why.add(f.ranksLogged() + " of " + f.nranks() + " ranks logged");
        }
        long open = f.evidence().ranks().stream().filter(r -> !r.initComplete()).count();
        if (open > 0 && f.evidence().ranks().stream().anyMatch(r -> r.initComplete())) {
            why.add(open + " rank init(s) without Init COMPLETE");
        }
        var w = f.firstFailureWarning();
        if (w != null && (w.ncclFile().isEmpty() || FailureKind.of(w) == FailureKind.PLUGIN)) {
            // a plugin's or the application's line about NCCL: NCCL may have gone on after it
            why.add("the failure is read from a line that is not NCCL's own WARN");
        }
        if (!f.unexplained().isEmpty()) {
            why.add(f.unexplained().size() + " WARN line(s) this tool does not interpret");
        }
        return String.join("; ", why);
    }
}
