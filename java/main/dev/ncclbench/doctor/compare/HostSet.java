package dev.ncclbench.doctor.compare;

import dev.ncclbench.doctor.snapshot.HostSnapshot;

import java.util.List;

/** The snapshots of the nodes of one job (`doctor --compare a.json b.json ...`), judged side by side. */
public record HostSet(List<HostSnapshot> hosts) {
    public HostSet {
        hosts = List.copyOf(hosts);
    }

    /** "node-a" or, when two nodes share a hostname, "node-a#2". */
    public String name(int i) {
        String n = hosts.get(i).hostname();
        long same = hosts.stream().filter(h -> h.hostname().equals(n)).count();
        return same > 1 ? n + "#" + (i + 1) : n;
    }
}
