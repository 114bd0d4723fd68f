package dev.ncclbench.baseline;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.results.ResultDocument;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Turns one or more result documents of the same fingerprint into a baseline. */
public final class BaselineRecorder {
    private BaselineRecorder() {
    }

    /** A result document and the file it was read from. */
    public record Source(String file, ResultDocument doc) {
    }

    /**
     * @param name     the baseline's name, or null for "BACKEND-NODESnRANKSr-ID"
     * @param thisHost this node's name, for the NIC rates of a run made here ({@link Fingerprint#of}), or null
     * @throws NcclbenchException (usage) when a run did not finish, lacks samples, or differs in fingerprint
     */
    public static Baseline record(List<Source> runs, String name, String thisHost) {
        if (runs.isEmpty()) {
            throw NcclbenchException.usage("baseline record needs at least one result JSON");
        }
        Fingerprint fp = null;
        String fpFile = null;
        Map<SizeKey, SizeSamples> lines = new LinkedHashMap<>();
        List<Baseline.Run> refs = new ArrayList<>();
        for (Source s : runs) {
            ResultDocument d = s.doc();
            if (!"ok".equals(d.status())) {
                throw NcclbenchException.usage(s.file() + " has status '" + d.status() + "'"
                        + (d.error() == null ? "" : " (" + d.error() + ")") + ": a baseline takes only finished runs");
            }
            Fingerprint f = Fingerprint.of(d, thisHost);
            if (fp == null) {
                fp = f;
                fpFile = s.file();
            } else if (!fp.id().equals(f.id())) {
                List<String> diff = fp.changesTo(f).stream().map(Fingerprint.Change::text).toList();
                throw NcclbenchException.usage(s.file() + " was measured on something else than " + fpFile + " ("
                        + String.join("; ", diff) + "): record them as separate baselines");
            }
            int cycles = 0;
            for (SizeSamples ss : RunSamples.of(d, s.file()).values()) {
                lines.merge(ss.key(), ss, SizeSamples::plus);
                cycles = Math.max(cycles, ss.groups().size());
            }
            if (cycles == 0) {
                throw NcclbenchException.usage(s.file() + " has no rows to record");
            }
            refs.add(new Baseline.Run(s.file(), d.startedAt(), d.status(), cycles, d.ncclChoices()));
        }
        List<Baseline.Entry> entries = new ArrayList<>();
        lines.keySet().stream().sorted(SizeKey.ORDER).forEach(k -> entries.add(Baseline.Entry.of(lines.get(k))));
        String n = name != null ? name : defaultName(fp);
        if (!n.matches("[A-Za-z0-9._-]+")) {
            throw NcclbenchException.usage("--name '" + n + "' may use only letters, digits, '.', '_' and '-'");
        }
        return new Baseline(Baseline.KIND, Baseline.SCHEMA_VERSION, n,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), fp.id(), fp, refs, entries);
    }

    /**
     * `baseline record --append`: the baseline with these runs added (their samples beside its own), refused when
     * they were measured on something else than it.
     */
    public static Baseline append(Baseline existing, String existingFile, List<Source> runs, String thisHost) {
        Baseline added = record(runs, existing.name(), thisHost);
        if (!existing.fingerprint().id().equals(added.fingerprint().id())) {
            List<String> diff = existing.fingerprint().changesTo(added.fingerprint()).stream()
                    .map(Fingerprint.Change::text).toList();
            throw NcclbenchException.usage("cannot append to " + existingFile + ": the runs were measured on something"
                    + " else (" + String.join("; ", diff) + "); record them as a baseline of their own");
        }
        Map<SizeKey, SizeSamples> merged = new LinkedHashMap<>();
        for (Baseline b : List.of(existing, added)) {
            for (Baseline.Entry e : b.entries()) {
                for (SizeKey k : e.keys()) {
                    merged.merge(k, e.samples(k), SizeSamples::plus);
                }
            }
        }
        List<Baseline.Entry> entries = new ArrayList<>();
        merged.keySet().stream().sorted(SizeKey.ORDER).forEach(k -> entries.add(Baseline.Entry.of(merged.get(k))));
        List<Baseline.Run> refs = new ArrayList<>(existing.runs());
        refs.addAll(added.runs());
        return new Baseline(Baseline.KIND, Baseline.SCHEMA_VERSION, existing.name(), added.createdAt(),
                existing.fingerprintId(), existing.fingerprint(), refs, entries);
    }

    /** "BACKEND-NODESnRANKSr-ID": the name a baseline of this fingerprint gets without --name. */
    public static String defaultName(Fingerprint fp) {
        return String.format(Locale.ROOT, "%s-%dn%dr-%s", fp.backend(), fp.nodes(), fp.ranks(), fp.id());
    }
}
