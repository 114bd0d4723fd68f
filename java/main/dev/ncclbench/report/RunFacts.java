package dev.ncclbench.report;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.results.ResultDocument;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a report's judged run was, at the top of the page as nccl-tests prints it at the top of its output: when it
 * ran, on which hosts, the backend and why, the versions, the GPUs or interfaces, the ranks and the command, so that
 * a page attached to a ticket explains itself.
 */
public final class RunFacts {
    /** Hosts named one by one up to this many; a larger job's page says how many more. */
    static final int HOSTS_NAMED = 8;

    private RunFacts() {
    }

    /** One line of the table: what it is, and its value. */
    public record Fact(String name, String value) {
    }

    /**
     * @param fp the run's fingerprint as the gate took it, or null: then read here, without this host's NIC rates
     */
    static List<Fact> of(ReportData.Run run, Fingerprint fp) {
        ResultDocument d = run.doc();
        Fingerprint f = fp != null ? fp : Fingerprint.of(d, null);
        List<Fact> out = new ArrayList<>();
        out.add(new Fact("run", run.file()));
        out.add(new Fact("when", orUnknown(d.startedAt()) + (d.finishedAt() == null ? "" : " to " + d.finishedAt())
                + ("ok".equals(d.status()) ? "" : " (" + d.status() + ")")));
        out.add(new Fact("hosts", hosts(d.ranks())));
        out.add(new Fact("ranks", d.nranks() + " on " + f.nodes() + (f.nodes() == 1 ? " node" : " nodes")));
        out.add(new Fact("backend", orUnknown(d.backend())
                + (d.backendReason() == null ? "" : " (" + d.backendReason() + ")")));
        out.add(new Fact(f.gpuCount() > 0 ? "GPUs" : "interfaces", f.gpuCount() > 0 ? f.gpuCount() + "x " + f.gpuModel()
                : f.nics().isEmpty() ? "none recorded" : String.join(" ", f.nics().keySet())));
        List<String> versions = new ArrayList<>();
        f.versions().forEach((k, v) -> versions.add(k + " " + v));
        out.add(new Fact("versions", versions.isEmpty() ? "none recorded" : String.join(", ", versions)));
        out.add(new Fact("command", d.commandLine().isEmpty() ? "not recorded" : String.join(" ", d.commandLine())));
        return List.copyOf(out);
    }

    private static String hosts(List<RankInfo> ranks) {
        Set<String> hosts = new LinkedHashSet<>();
        ranks.forEach(r -> hosts.add(r.host() == null ? "?" : r.host()));
        if (hosts.isEmpty()) {
            return "not recorded";
        }
        List<String> named = hosts.stream().limit(HOSTS_NAMED).toList();
        return String.join(", ", named) + (hosts.size() > named.size()
                ? " and " + (hosts.size() - named.size()) + " more (" + hosts.size() + " hosts)" : "");
    }

    private static String orUnknown(String s) {
        return s == null || s.isBlank() ? "unknown" : s;
    }
}
