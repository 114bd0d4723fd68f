package dev.ncclbench.doctor;

import dev.ncclbench.diagnosis.CatalogLocation;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.doctor.rules.HostEvidence;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NcclProbeResult;
import dev.ncclbench.doctor.snapshot.SiteLink;
import dev.ncclbench.doctor.snapshot.SnapshotJson;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.ProbeResult;
import dev.ncclbench.env.ProbeRunner;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.RuleBook;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * `ncclbench doctor` as a library call: collect (or load) a host snapshot, ask the real NCCL when it is here,
 * judge with the rule book. The preflight gate calls {@link #run}; bad input is an NcclbenchException (exit 2).
 */
public final class Doctor {
    private Doctor() {
    }

    public static DoctorReport run(DoctorOptions o) {
        return run(o, null);
    }

    /** As {@link #run(DoctorOptions)}, the evidence also saved to {@code saveTo} (--save) when it is not null. */
    public static DoctorReport run(DoctorOptions o, java.nio.file.Path saveTo) {
        HostSnapshot s = snapshot(o);
        if (saveTo != null) {
            SnapshotJson.save(s, saveTo);
        }
        return judge(s, o);
    }

    /** The evidence only, as `--save` writes it. */
    public static HostSnapshot snapshot(DoctorOptions o) {
        HostSnapshot s;
        if (o.snapshot() != null) {
            s = SnapshotJson.load(o.snapshot());
        } else if (o.root() != null) {
            s = HostCollector.capture(o.root());
        } else {
            s = HostCollector.live(o.host());
            s = probe(s, o);
        }
        if (o.catalog() != null || o.snapshot() == null) {
            s = s.withSiteLinks(siteLinks(o.catalog()));
        }
        return s;
    }

    /** Judges a snapshot: the same rules whatever its origin. */
    public static DoctorReport judge(HostSnapshot s, DoctorOptions o) {
        RuleBook<HostEvidence> book = DoctorRules.book();
        HostEvidence evidence = HostEvidence.of(s);
        List<Finding> findings = book.run(evidence, o.ignored());
        Prediction p = InterfacePredictor.predict(s);
        DoctorReport.Probe probe = null;
        if (s.probe() != null) {
            NcclProbeResult np = s.probe();
            probe = new DoctorReport.Probe(np.library(), np.version(), np.bootstrapInterface(), np.bootstrapAddress(),
                    np.ran() && Objects.equals(np.bootstrapInterface(), p.bootstrap().iface()), np.problem());
        }
        return new DoctorReport(DoctorReport.KIND, DoctorReport.SCHEMA_VERSION, s.hostname(), o.failOn().fails(findings), findings,
                evidence.rails(), p.bootstrap(),
                p.socketInterfaces(), p.nccl(), probe, s);
    }

    private static HostSnapshot probe(HostSnapshot s, DoctorOptions o) {
        if (Boolean.FALSE.equals(o.probe())) {
            return s;
        }
        NativeLibraries.Found nccl = o.host().libraries().nccl();
        if (!nccl.present()) {
            return s; // NCCL-NOT-FOUND says so; --probe-nccl without NCCL is the command's usage error
        }
        ProbeResult r = ProbeRunner.probe(nccl.path(), o.host());
        return s.withProbe(new NcclProbeResult(nccl.path().toString(), r.versionString(), r.problem() == null && r.loaded()
                ? r.uniqueIdStatus() : -1, r.result() == null ? null : r.result().cName, r.bootstrapInterface(),
                r.bootstrapAddress(), r.warnings(), r.problem() != null ? r.problem() : r.loaded() ? null : "cannot load: " + r.dlError()));
    }

    /** The site section of the catalog {@link CatalogLocation} picks for --catalog (null: not given). */
    static List<SiteLink> siteLinks(Path catalog) {
        FabricCatalog c = CatalogLocation.read(catalog);
        List<SiteLink> out = new ArrayList<>();
        for (FabricCatalog.Site site : c.sites()) {
            out.add(new SiteLink(site.match(), site.fabric().id(), site.fabric().lineGBps() * 8, site.source()));
        }
        return out;
    }
}
