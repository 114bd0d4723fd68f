package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.ProcessInfo;

import java.util.HashMap;
import java.util.Map;

/**
 * Where each process last showed NCCL going on (a connection, a chosen network, Init COMPLETE) and last completed an
 * init, per file: what tells a warning its process went on after (a NET plugin probed and absent, a connect retried)
 * from the one that ended it. Keyed "host:pid:file" as the processes are; lines without a pid are no process's.
 */
final class ProgressTable {
    private final int maxItems;
    /** "host:pid:file" to {last progress line, last Init COMPLETE line}, -1 when none. */
    private final Map<String, long[]> lines = new HashMap<>();
    /** The slot of the process that made progress last: a process's connection lines come in runs. */
    private long[] slot;
    private String slotHost;
    private long slotPid = Long.MIN_VALUE;
    private String slotFile;

    ProgressTable(int maxItems) {
        this.maxItems = maxItems;
    }

    void progress(String host, long pid, String file, long lineNo, boolean initComplete) {
        if (pid < 0) {
            return;
        }
        if (pid != slotPid || file != slotFile || !host.equals(slotHost)) {
            String key = host + ':' + pid + ':' + file;
            long[] s = lines.get(key);
            if (s == null) {
                if (lines.size() >= maxItems) {
                    return;
                }
                s = new long[] {-1, -1};
                lines.put(key, s);
            }
            slot = s;
            slotHost = host;
            slotPid = pid;
            slotFile = file;
        }
        slot[0] = Math.max(slot[0], lineNo);
        if (initComplete) {
            slot[1] = Math.max(slot[1], lineNo);
        }
    }

    /** Adds another table's processes (files read in parallel are read by tables of their own). */
    void merge(ProgressTable o) {
        o.lines.forEach((k, v) -> {
            if (lines.size() < maxItems || lines.containsKey(k)) {
                long[] mine = lines.computeIfAbsent(k, x -> new long[] {-1, -1});
                mine[0] = Math.max(mine[0], v[0]);
                mine[1] = Math.max(mine[1], v[1]);
            }
        });
        slotPid = Long.MIN_VALUE;
    }

    /** The process with its last progress and last Init COMPLETE filled in. */
    ProcessInfo of(String key, ProcessInfo p) {
        long[] s = lines.get(key);
        if (s == null) {
            return p;
        }
        String f = p.firstLine().file();
        return new ProcessInfo(p.host(), p.pid(), p.device(), p.firstLine(), s[0] < 0 ? null : new SourceRef(f, s[0]),
                s[1] < 0 ? null : new SourceRef(f, s[1]));
    }
}
