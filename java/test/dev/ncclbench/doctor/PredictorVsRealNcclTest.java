package dev.ncclbench.doctor;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NcclProbeResult;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.ProbeResult;
import dev.ncclbench.env.ProbeRunner;
import dev.ncclbench.env.RealNccl;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * doctor's prediction against the real libnccl.so.2, inside network namespaces shaped like GPU nodes (ib0, eth0,
 * enp3s0, docker0, virbr0, lo; some down), for the NCCL_SOCKET_IFNAME values users write. The namespace is captured
 * with scripts/capture-host.sh, so the capture path is proven on the way. Needs root (CI runs as root).
 */
@Tag("lab")
class PredictorVsRealNcclTest {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();

    @Test
    void theRealNcclChoosesWhatDoctorPredicts() throws Exception {
        Netns.assumeAvailable();
        Path lib = RealNccl.require();
        List<String> report = new ArrayList<>();
        List<String> mismatches = new ArrayList<>();
        try (Netns a = Netns.create("a"); Netns b = Netns.create("b"); Netns c = Netns.create("c")) {
            // a: a GPU node; docker0 before eth0 in kernel order, enp3s0 down, ib0 (IPoIB-named) created last
            a.dummy("docker0", "172.17.0.1/16", true);
            a.dummy("eth0", "10.10.0.5/24", true);
            a.dummy("enp3s0", "10.20.0.5/24", false);
            a.dummy("virbr0", "192.168.122.1/24", true);
            a.dummy("ib0", "10.30.0.5/24", true);
            // b: no ib; eth0 down, virbr0 before enp3s0
            b.dummy("eth0", "10.40.0.5/24", false);
            b.dummy("docker0", "172.18.0.1/16", true);
            b.dummy("virbr0", "192.168.123.1/24", true);
            b.dummy("enp3s0", "10.50.0.5/24", true);
            // c: only bridges and loopback
            c.dummy("virbr0", "192.168.124.1/24", true);
            c.dummy("docker0", "172.19.0.1/16", false);
            Map<Netns, List<Map<String, String>>> cases = new LinkedHashMap<>();
            cases.put(a, List.of(env(null), env("eth"), env("^docker,lo"), env("=eth0"), env("^=eth0"), env("rdma0,eth0"),
                    env("x"), env("ib"), env("^ib"), env("enp"), env("^=eth0,ib0,docker0,virbr0"),
                    Map.of("NCCL_SOCKET_FAMILY", "AF_INET6"), Map.of("NCCL_COMM_ID", "10.10.0.99:29500", "NCCL_SOCKET_IFNAME", "ib")));
            cases.put(b, List.of(env(null), env("^docker,lo"), env("eth"), env("^enp")));
            cases.put(c, List.of(env(null), env("^lo")));
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                for (Map.Entry<Netns, List<Map<String, String>>> e : cases.entrySet()) {
                    Netns ns = e.getKey();
                    Path tree = Files.createTempDirectory("doctor-capture");
                    Netns.Result cap = Netns.run(concat(ns.exec(), List.of("bash", BASE.resolve("scripts/capture-host.sh").toString(), tree.toString())));
                    assertTrue(cap.ok(), cap.output());
                    HostSnapshot captured = HostCollector.capture(tree);
                    List<Future<String>> results = new ArrayList<>();
                    for (Map<String, String> env : e.getValue()) {
                        results.add(pool.submit(() -> compare(ns, captured, env, lib)));
                    }
                    for (Future<String> f : results) {
                        String line = f.get();
                        report.add(line);
                        if (line.startsWith("MISMATCH")) {
                            mismatches.add(line);
                        }
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }
        System.out.println(String.join("\n", report));
        assertTrue(mismatches.isEmpty(), String.join("\n", report));
        assertEquals(19, report.size(), String.join("\n", report));
    }

    private static String compare(Netns ns, HostSnapshot captured, Map<String, String> env, Path lib) {
        // this JVM's environment with the scenario's NCCL settings in place of its own (unset where the scenario has none)
        Map<String, String> child = new HashMap<>(System.getenv());
        for (String k : List.of("NCCL_SOCKET_IFNAME", "NCCL_SOCKET_FAMILY", "NCCL_COMM_ID", "NCCL_CONF_FILE")) {
            if (env.get(k) == null) {
                child.remove(k);
            } else {
                child.put(k, env.get(k));
            }
        }
        ProbeResult r = ProbeRunner.probe(lib, Host.of(child), ns.exec());
        if (r.problem() != null || !r.loaded()) {
            return "MISMATCH " + ns.name + " " + env + ": the probe did not run: " + r.problem() + " " + r.dlError();
        }
        HostSnapshot s = captured.withEnv(env).withProbe(new NcclProbeResult(lib.toString(), r.versionString(), r.uniqueIdStatus(),
                r.result().cName, r.bootstrapInterface(), r.bootstrapAddress(), r.warnings(), null));
        Prediction p = InterfacePredictor.predict(s);
        String real = r.bootstrapFailed() ? "fails (" + r.ncclSentence() + ")" : r.bootstrapInterface() + " " + r.bootstrapAddress();
        boolean same = p.bootstrap().iface() == null ? r.bootstrapFailed() : p.bootstrap().iface().equals(r.bootstrapInterface());
        return (same ? "ok       " : "MISMATCH ") + ns.name + " " + env + ": predicted " + p.bootstrap().iface()
                + " (" + p.bootstrap().why() + "), NCCL " + r.versionString() + ": " + real;
    }

    private static Map<String, String> env(String ifname) {
        Map<String, String> m = new HashMap<>();
        if (ifname != null) {
            m.put("NCCL_SOCKET_IFNAME", ifname);
        }
        return m;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
