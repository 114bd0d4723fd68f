package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.HostFacts;
import dev.ncclbench.nccllog.NcclLogEvidence.HostNet;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every host did, kept for every host: the processes it ran and the NET connection lines it printed, per
 * network and GPUDirect or not. The item caps of {@link Accumulator} bound what is listed; this table is what a
 * verdict over a whole job reads, so a socket node at host 1000 of 1024 still counts. Names are kept up to
 * {@link #MAX_HOSTS}; the lines of hosts beyond that are folded into the unnamed entry "" and still judged.
 */
final class HostTable {
    /** Names kept; about 200 bytes each, so the table stays far below any heap a job this size runs with. */
    static final int MAX_HOSTS = 1 << 17;
    /** Distinct pids counted per host: more processes than this on one host is not a real job. */
    static final int MAX_PIDS = 1024;

    private final Map<String, State> hosts = new LinkedHashMap<>();
    /** Lines of one host come in runs (one file per rank or per node): most lookups hit this. */
    private State last;
    private String lastName;

    /** The state of the host that printed a line; host may be "" (a line without a header). */
    State of(String host, String file, long lineNo) {
        if (lastName != null && lastName.equals(host)) {
            return last;
        }
        State s = hosts.get(host);
        if (s == null) {
            String key = hosts.size() >= MAX_HOSTS ? "" : host;
            s = hosts.computeIfAbsent(key, k -> new State(k, new SourceRef(file, lineNo)));
        }
        last = s;
        lastName = host;
        return s;
    }

    /**
     * Whether process {@code pid} of {@code host} is already counted for {@code file}: another line of it there changes
     * nothing in this table (the reader's short way for trace lines asks before taking it).
     */
    boolean seen(String host, long pid, String file) {
        State s = hosts.get(host);
        return s != null && s.seenFile == file && s.seenPids.contains(pid);
    }

    /** Adds another table's hosts after this one's (reading files in parallel, merged in file order). */
    void merge(HostTable other) {
        for (State o : other.hosts.values()) {
            State s = of(o.host, o.first.file(), o.first.line());
            for (Long pid : o.pids) {
                s.pid(pid);
            }
            for (Net n : o.nets) {
                s.net(n.network, n.first).add(n);
            }
            o.chosen.forEach(s::chose);
        }
    }

    List<HostFacts> freeze() {
        List<HostFacts> out = new ArrayList<>(hosts.size());
        for (State s : hosts.values()) {
            List<HostNet> nets = new ArrayList<>(s.nets.size());
            for (Net n : s.nets) {
                nets.add(new HostNet(n.network, n.gdrLines, n.otherLines, n.first, n.firstOther));
            }
            out.add(new HostFacts(s.host, s.pids.size(), List.copyOf(nets), List.copyOf(s.chosen), s.first));
        }
        return List.copyOf(out);
    }

    static final class State {
        final String host;
        final SourceRef first;
        private final Set<Long> pids = new HashSet<>();
        private final List<Net> nets = new ArrayList<>(2);
        /** "Using network X" of its processes: which side of a socket connection fell back (a few names). */
        private final List<String> chosen = new ArrayList<>(1);
        private long lastPid = -1;
        /** The pids already seen in the file being read (a few per host); the file is compared by identity. */
        private String seenFile;
        private final Set<Long> seenPids = new HashSet<>();

        State(String host, SourceRef first) {
            this.host = host;
            this.first = first;
        }

        /** Whether this pid already logged in this file; remembers it. */
        boolean seenIn(long pid, String file) {
            if (file != seenFile) {
                seenFile = file;
                seenPids.clear();
            }
            if (seenPids.contains(pid)) {
                return true;
            }
            if (seenPids.size() < MAX_PIDS) {
                seenPids.add(pid);
            }
            return false;
        }

        void chose(String network) {
            if (!chosen.contains(network) && chosen.size() < 8) {
                chosen.add(network);
            }
        }

        void pid(long pid) {
            if (pid >= 0 && pid != lastPid && pids.size() < MAX_PIDS) {
                pids.add(pid);
                lastPid = pid;
            }
        }

        /** One NET connection line of this host: network as printed ("IB", "Socket", "IBext_v8"). */
        void netLine(String network, boolean gdr, String file, long lineNo) {
            Net n = net(network, null);
            if (n.first == null) {
                n.first = new SourceRef(file, lineNo);
            }
            if (gdr) {
                n.gdrLines++;
            } else {
                n.otherLines++;
                if (n.firstOther == null) {
                    n.firstOther = new SourceRef(file, lineNo);
                }
            }
        }

        private Net net(String network, SourceRef first) {
            for (Net n : nets) {
                if (n.network.equals(network)) {
                    return n;
                }
            }
            Net n = new Net(network);
            n.first = first;
            nets.add(n);
            return n;
        }
    }

    private static final class Net {
        final String network;
        long gdrLines;
        long otherLines;
        SourceRef first;
        SourceRef firstOther;

        Net(String network) {
            this.network = network;
        }

        void add(Net o) {
            if (first == null) {
                first = o.first;
            }
            if (firstOther == null) {
                firstOther = o.firstOther;
            }
            gdrLines += o.gdrLines;
            otherLines += o.otherLines;
        }
    }
}
