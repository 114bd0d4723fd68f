package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.Interface;

import java.util.ArrayList;
import java.util.List;

/**
 * Interface lists as NCCL prints them after "Using": "[0]eth0:10.0.0.1<0> [1]eth1:10.1.0.1<0>" (NET/Socket,
 * Bootstrap 2.5-2.8), "eth0:10.0.0.1<0>" (Bootstrap), "ib0:192.168.1.1<0>" (NET/IB's OOB).
 */
final class InterfaceLists {
    private InterfaceLists() {
    }

    /** The interfaces of one list; prefix is put before each name ("oob:" for NET/IB's out-of-band one). */
    static List<Interface> parse(String list, String host, String prefix, SourceRef at) {
        List<Interface> out = new ArrayList<>(2);
        for (String tok : list.trim().split("\\s+")) {
            String t = tok;
            if (t.startsWith("[")) {
                int close = t.indexOf(']');
                t = close >= 0 ? t.substring(close + 1) : t;
            }
            int colon = t.indexOf(':');
            if (colon <= 0 || t.equals("interface")) {
                continue;
            }
            out.add(new Interface(host, prefix + t.substring(0, colon), t.substring(colon + 1), at));
        }
        return out;
    }

    /** "Bootstrap : Using eth0:10.0.0.1<0>" (every era's spelling): the bootstrap interface. */
    static boolean bootstrap(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        if (!m.startsWith("Bootstrap")) {
            return false;
        }
        int u = m.indexOf("Using ");
        if (u < 0) {
            return false;
        }
        for (Interface i : parse(m.substring(u + 6), p.host, "", new SourceRef(file, lineNo))) {
            acc.bootstrap(i, p.pid);
        }
        return true;
    }
}
