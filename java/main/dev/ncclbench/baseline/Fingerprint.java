package dev.ncclbench.baseline;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.env.HostVersions;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepFlag;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a run was measured on and with: the topology (backend, nodes, ranks, GPU model and count, NICs and
 * their rates), the software (NCCL, CUDA, driver, OFED versions), the NCCL_ settings that change the path, and
 * how it was measured (type, op, -m, -z, -a, -G, sockets per peer). A baseline is keyed by it; the gate prints
 * the fields that differ.
 *
 * @param nics     interface name to its rate ("25000 Mb/s", or "" when not known)
 * @param versions nccl, cuda_runtime, driver, ofed (and ncclbench) as the run recorded them
 * @param ncclEnv  every NCCL_ variable except the ones that only change logging or bootstrap addressing
 */
@JsonPropertyOrder({"backend", "nodes", "ranks", "gpu_model", "gpu_count", "nics", "versions", "nccl_env",
        "measurement"})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Fingerprint(
        String backend,
        int nodes,
        int ranks,
        String gpuModel,
        int gpuCount,
        Map<String, String> nics,
        Map<String, String> versions,
        Map<String, String> ncclEnv,
        Map<String, String> measurement) {

    /**
     * Versions that change what the fabric delivers; others (java, os, where a library was loaded from) are kept out
     * of the key: the same NCCL from another folder is the same NCCL.
     */
    static final List<String> VERSION_KEYS = List.of(HostVersions.NCCL, HostVersions.CUDA_RUNTIME,
            HostVersions.CUDA_DRIVER_API, HostVersions.DRIVER, HostVersions.OFED, HostVersions.RDMA_CORE,
            HostVersions.KERNEL, "ncclbench");
    /** NCCL_ variables that change only what is logged or where bootstrap listens, never the data path. */
    static final List<String> NOT_PATH = List.of("NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_FILE",
            "NCCL_DEBUG_TIMESTAMP_FORMAT", "NCCL_DEBUG_TIMESTAMP_LEVELS", "NCCL_COMM_ID", "NCCL_HOME",
            "NCCL_TOPO_DUMP_FILE", "NCCL_GRAPH_DUMP_FILE", "NCCL_WARN_ENABLE_DEBUG_INFO", "NCCL_SET_THREAD_NAME");

    public Fingerprint {
        nics = sorted(nics);
        // a baseline written before the fields existed kept one sentence under "nccl": its version compares
        versions = sorted(keyed(HostVersions.normalized(versions)));
        ncclEnv = sorted(ncclEnv);
        measurement = sorted(measurement);
        gpuModel = gpuModel == null ? "" : gpuModel;
    }

    /**
     * The fingerprint of a result document; NIC rates are read from this host when the run was on it.
     *
     * @param thisHost this node's name as the ranks record theirs (launch/HostName.node with the process's
     *                 environment), or null: no rate is read
     */
    public static Fingerprint of(ResultDocument doc, String thisHost) {
        return of(doc, NicRates.local(thisHost));
    }

    static Fingerprint of(ResultDocument doc, NicRates rates) {
        List<RankInfo> ranks = doc.ranks() == null ? List.of() : doc.ranks();
        TreeSet<String> hosts = new TreeSet<>();
        TreeSet<String> gpus = new TreeSet<>();
        TreeSet<String> models = new TreeSet<>();
        Map<String, String> nics = new TreeMap<>();
        for (RankInfo r : ranks) {
            hosts.add(r.host() == null ? "" : r.host());
            String dev = r.device() == null ? "" : r.device().strip();
            if (dev.startsWith("cuda:")) {
                // "cuda:0 [0000:18:00.0] NVIDIA H200": the model after the bus id
                gpus.add(r.host() + " " + dev.split(" ", 2)[0] + " " + between(dev, '[', ']'));
                int close = dev.indexOf(']');
                models.add(close > 0 ? dev.substring(close + 1).strip() : "");
            } else if (!dev.isEmpty()) {
                String name = dev.split("[: ]", 2)[0];
                nics.put(name, rates.rate(r.host(), name));
            }
        }
        if (doc.spec() != null && doc.spec().socket().ifname() != null && nics.isEmpty()) {
            nics.put("NCCL_SOCKET_IFNAME=" + doc.spec().socket().ifname(), "");
        }
        Map<String, String> versions = new TreeMap<>();
        Map<String, String> docVersions = HostVersions.normalized(doc.versions());
        for (String k : VERSION_KEYS) {
            if (docVersions.get(k) != null) {
                versions.put(k, docVersions.get(k));
            }
        }
        Map<String, String> env = new TreeMap<>();
        (doc.environment() == null ? Map.<String, String>of() : doc.environment()).forEach((k, v) -> {
            if (k.startsWith("NCCL_") && !NOT_PATH.contains(k)) {
                env.put(k, v);
            }
        });
        Map<String, String> m = measurement(doc.spec(), Backends.capabilitiesOf(doc.backend()));
        return new Fingerprint(doc.backend(), hosts.size(), doc.nranks(), String.join(", ", models), gpus.size(),
                nics, versions, env, m);
    }

    /**
     * How it was measured: the flags {@link SweepFlag#measured} names, a backend's own flags only when that backend
     * ran, and the ones added later only when set (a baseline recorded before they existed ran their default).
     */
    static Map<String, String> measurement(RunSpec s, Set<Capability> backendCan) {
        Map<String, String> m = new TreeMap<>();
        if (s == null) {
            return m;
        }
        for (SweepFlag f : SweepFlag.measured()) {
            boolean honoured = f.needs() == null || backendCan.contains(f.needs());
            boolean keyed = switch (f.keyed()) {
                case ALWAYS -> true;
                case WHEN_HONOURED -> honoured;
                case WHEN_SET -> honoured && f.isSet(s);
                default -> false;
            };
            if (keyed) {
                Object v = f.valueIn(s);
                m.put(f.json(), v == null ? "" : String.valueOf(v));
            }
        }
        return m;
    }

    /** The hardware part: a baseline applies to a run only when this matches (versions may differ: upgrades). */
    @JsonIgnore
    public String topologyKey() {
        return backend + "|" + nodes + "|" + ranks + "|" + gpuModel + "|" + gpuCount + "|" + nics.keySet();
    }

    /** A short stable id of every field: the same id means the same fingerprint. */
    @JsonIgnore
    public String id() {
        String canonical = topologyKey() + "|" + nics + "|" + versions + "|" + ncclEnv + "|" + measurement;
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** One line: "socket, 1 node, 2 ranks, lo" or "nccl, 2 nodes, 16 ranks, 16x NVIDIA H200, ib0 ...". */
    @JsonIgnore
    public String summary() {
        StringBuilder sb = new StringBuilder(backend + ", " + nodes + (nodes == 1 ? " node, " : " nodes, ") + ranks
                + (ranks == 1 ? " rank" : " ranks"));
        if (gpuCount > 0) {
            sb.append(", ").append(gpuCount).append("x ").append(gpuModel);
        }
        if (!nics.isEmpty()) {
            sb.append(", ").append(String.join(" ", nics.keySet()));
        }
        versions.forEach((k, v) -> {
            if (!k.equals("ncclbench")) {
                sb.append(", ").append(k).append(' ').append(v);
            }
        });
        return sb.toString();
    }

    /** Every field that differs, as "what: before -> after", in the order a person reads them. */
    public List<Change> changesTo(Fingerprint run) {
        List<Change> out = new ArrayList<>();
        field(out, "topology", "backend", backend, run.backend);
        field(out, "topology", "nodes", String.valueOf(nodes), String.valueOf(run.nodes));
        field(out, "topology", "ranks", String.valueOf(ranks), String.valueOf(run.ranks));
        field(out, "topology", "GPU model", gpuModel, run.gpuModel);
        field(out, "topology", "GPU count", String.valueOf(gpuCount), String.valueOf(run.gpuCount));
        map(out, "interface", nics, run.nics, true);
        map(out, "version", versions, run.versions, false);
        map(out, "env", ncclEnv, run.ncclEnv, false);
        map(out, "measurement", measurement, run.measurement, false);
        return out;
    }

    /** One changed field. before or after is null when the field is absent on that side. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Change(String kind, String what, String before, String after) {
        public String text() {
            return what + ": " + (before == null ? "(unset)" : before) + " -> " + (after == null ? "(unset)" : after);
        }
    }

    private static void field(List<Change> out, String kind, String what, String a, String b) {
        if (!Objects.equals(a, b)) {
            out.add(new Change(kind, what, a, b));
        }
    }

    private static void map(List<Change> out, String kind, Map<String, String> a, Map<String, String> b,
                            boolean interfaces) {
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        for (String k : keys) {
            String va = a.get(k);
            String vb = b.get(k);
            if (!interfaces) {
                field(out, kind, k, va, vb);
            } else if (va == null || vb == null) {
                field(out, kind, "interface " + k, va == null ? null : "used", vb == null ? null : "used");
            } else if (!va.isEmpty() && !vb.isEmpty()) {
                field(out, kind, k + " rate", va, vb); // a rate read on one side only is not a change
            }
        }
    }

    private static Map<String, String> keyed(Map<String, String> versions) {
        Map<String, String> out = new TreeMap<>();
        versions.forEach((k, v) -> {
            if (VERSION_KEYS.contains(k) && v != null) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static String between(String s, char open, char close) {
        int a = s.indexOf(open);
        int b = s.indexOf(close);
        return a >= 0 && b > a ? s.substring(a + 1, b) : "";
    }

    private static Map<String, String> sorted(Map<String, String> m) {
        return m == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(m));
    }
}
