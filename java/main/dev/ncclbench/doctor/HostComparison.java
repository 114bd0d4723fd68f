package dev.ncclbench.doctor;

import dev.ncclbench.doctor.compare.CompareRules;
import dev.ncclbench.doctor.compare.CompareText;
import dev.ncclbench.doctor.compare.HostSet;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.SnapshotJson;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * `ncclbench doctor --compare` as one library call: several hosts' saved snapshots, judged against each other by the
 * compare book, printed as text or JSON.
 */
public record HostComparison(List<HostSnapshot> hosts, List<Finding> findings) {
    public HostComparison {
        hosts = List.copyOf(hosts);
        findings = List.copyOf(findings);
    }

    /** @param ignored rule ids left out (--ignore is every book's: the compare book keeps its own) */
    public static HostComparison of(List<Path> snapshots, Set<String> ignored) {
        List<HostSnapshot> hosts = new ArrayList<>();
        for (Path p : snapshots) {
            hosts.add(SnapshotJson.load(p));
        }
        return new HostComparison(hosts, CompareRules.book().run(new HostSet(hosts), ignored));
    }

    public void write(PrintWriter out) {
        CompareText.write(out, hosts, findings);
    }

    public String json(FailOn failOn) {
        return CompareText.json(hosts, findings, failOn.fails(findings));
    }
}
