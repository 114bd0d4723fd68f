package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.Progress;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each rank of each process (its "[N]" device) last showed NCCL going on (a connection, a chosen network, Init
 * COMPLETE) and last completed an init, per file: what tells a warning its rank went on after (a NET plugin probed and
 * absent, a connect retried) from the one that ended it. Lines without a pid are no process's.
 */
final class ProgressTable {
    private final int maxItems;
    /** "host:pid:device:file" to the rank and {last progress line, last Init COMPLETE line}, -1 when none. */
    private final Map<String, Slot> slots = new LinkedHashMap<>();
    /** The slot of the rank that made progress last: a rank's connection lines come in runs. */
    private Slot last;

    private static final class Slot {
        final String host;
        final long pid;
        final String device;
        final String file;
        long progress = -1;
        long complete = -1;

        Slot(String host, long pid, String device, String file) {
            this.host = host;
            this.pid = pid;
            this.device = device;
            this.file = file;
        }
    }

    ProgressTable(int maxItems) {
        this.maxItems = maxItems;
    }

    void progress(String host, long pid, String device, String file, long lineNo, boolean initComplete) {
        if (pid < 0) {
            return;
        }
        Slot s = last;
        if (s == null || s.pid != pid || s.file != file || !s.device.equals(device) || !s.host.equals(host)) {
            String key = host + ':' + pid + ':' + device + ':' + file;
            s = slots.get(key);
            if (s == null) {
                if (slots.size() >= maxItems) {
                    return;
                }
                s = new Slot(host, pid, device, file);
                slots.put(key, s);
            }
            last = s;
        }
        s.progress = Math.max(s.progress, lineNo);
        if (initComplete) {
            s.complete = Math.max(s.complete, lineNo);
        }
    }

    /** Adds another table's ranks (files read in parallel are read by tables of their own). */
    void merge(ProgressTable o) {
        o.slots.forEach((k, v) -> {
            Slot mine = slots.get(k);
            if (mine == null && slots.size() < maxItems) {
                slots.put(k, v);
            } else if (mine != null) {
                mine.progress = Math.max(mine.progress, v.progress);
                mine.complete = Math.max(mine.complete, v.complete);
            }
        });
        last = null;
    }

    List<Progress> freeze() {
        List<Progress> out = new ArrayList<>(slots.size());
        for (Slot s : slots.values()) {
            out.add(new Progress(s.host, s.pid, s.device, s.progress < 0 ? null : new SourceRef(s.file, s.progress),
                    s.complete < 0 ? null : new SourceRef(s.file, s.complete)));
        }
        return List.copyOf(out);
    }
}
