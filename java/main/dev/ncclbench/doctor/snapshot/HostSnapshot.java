package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything doctor knows about one host, collected once and never changed: rules judge this and nothing else,
 * so a saved snapshot (a ticket attachment) is judged exactly as the live host was.
 *
 * @param source        "live" or "capture DIR" (where the evidence was read)
 * @param interfaces    in kernel (getifaddrs) order
 * @param devInfiniband the names under /dev/infiniband; null when the folder does not exist
 * @param memlockBytes  RLIMIT_MEMLOCK soft limit; -1 unlimited; null unknown
 * @param capIpcLock    whether CAP_IPC_LOCK is effective (verbs then ignore memlock); null unknown
 * @param shmBytes      the size of /dev/shm; null unknown
 * @param pci           GPUs, NICs and the PCI bridges between them, NUMA nodes, the CPU: what the rail table reads
 * @param acs           PCI bridges with ACS redirect flags printed by lspci -vvv; null when lspci was not read
 * @param env           the process's NCCL_ variables (and the few others doctor reads), as NCCL would see them
 * @param confFiles     NCCL's configuration files that exist, in the order NCCL reads them
 * @param probe         what the real libnccl.so.2 chose in a child process; null when it was not run
 * @param siteLinks     link rates a site declared in its fabric catalog (veth and some NICs report none)
 * @param problems      every collector that failed or lacked permission: each becomes a finding
 */
@JsonPropertyOrder(alphabetic = false)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record HostSnapshot(String kind, int schemaVersion, String hostname, String source, String kernel,
                           List<NetLink> interfaces, List<IbDevice> ibDevices, List<String> devInfiniband,
                           Long memlockBytes, Boolean capIpcLock, Long shmBytes, Nvidia nvidia, PciTopology pci, List<AcsBridge> acs,
                           Container container, Map<String, String> env, List<ConfFile> confFiles, Versions versions,
                           NcclProbeResult probe, List<SiteLink> siteLinks, List<Problem> problems) {
    public static final String KIND = "ncclbench.host";
    /** 2: kind and schema_version replace "schema": "ncclbench.host/1"; snake_case keys. Both are read. */
    public static final int SCHEMA_VERSION = 2;

    public HostSnapshot {
        interfaces = interfaces == null ? List.of() : List.copyOf(interfaces);
        ibDevices = ibDevices == null ? List.of() : List.copyOf(ibDevices);
        devInfiniband = devInfiniband == null ? null : List.copyOf(devInfiniband);
        acs = acs == null ? null : List.copyOf(acs);
        env = env == null ? Map.of() : Map.copyOf(env);
        confFiles = confFiles == null ? List.of() : List.copyOf(confFiles);
        siteLinks = siteLinks == null ? List.of() : List.copyOf(siteLinks);
        problems = problems == null ? List.of() : List.copyOf(problems);
        nvidia = nvidia == null ? Nvidia.NONE : nvidia;
        pci = pci == null ? PciTopology.NONE : pci;
        container = container == null ? new Container(false, List.of()) : container;
        versions = versions == null ? Versions.NONE : versions;
    }

    /** A snapshot built by name: kind and schema version are this version's, every other part unknown until set. */
    public static Builder builder() {
        return new Builder();
    }

    /** This snapshot's parts in a builder, to change one. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A copy with the real NCCL's answer (the probe runs after collection, in a child). */
    public HostSnapshot withProbe(NcclProbeResult p) {
        return toBuilder().probe(p).build();
    }

    /** A copy with the site's declared link rates (from a fabric catalog), replacing any saved ones. */
    public HostSnapshot withSiteLinks(List<SiteLink> links) {
        return toBuilder().siteLinks(links).build();
    }

    /** A copy judged with another process environment (NCCL_ variables). */
    public HostSnapshot withEnv(Map<String, String> e) {
        return toBuilder().env(e).build();
    }

    /** A copy with more collector problems. */
    public HostSnapshot withProblem(Problem p) {
        List<Problem> all = new ArrayList<>(problems);
        all.add(p);
        return toBuilder().problems(all).build();
    }

    /**
     * What NCCL reads as its environment: the process's variables, then NCCL_CONF_FILE (or ~/.nccl.conf), then
     * /etc/nccl.conf, each filling only what is still unset (NCCL's setEnvFile calls setenv without overwrite).
     */
    @JsonIgnore
    public Map<String, Setting> ncclSettings() {
        Map<String, Setting> out = new LinkedHashMap<>();
        env.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.put(e.getKey(), new Setting(e.getKey(), e.getValue(), "environment")));
        for (ConfFile f : confFiles) {
            f.values().forEach((k, v) -> out.putIfAbsent(k, new Setting(k, v, f.path())));
        }
        return out;
    }

    /** One NCCL setting as NCCL will see it, or empty when unset (an empty value counts as unset, as in NCCL). */
    public Optional<Setting> setting(String name) {
        Setting s = ncclSettings().get(name);
        return s == null || s.value().isEmpty() ? Optional.empty() : Optional.of(s);
    }

    /** The interface of this name, if any. */
    public Optional<NetLink> link(String name) {
        return interfaces.stream().filter(l -> l.name().equals(name)).findFirst();
    }

    /** A variable's value as NCCL sees it, and where it was set. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Setting(String name, String value, String source) {
        /** "NCCL_IB_DISABLE=1 (environment)". */
        public String evidence() {
            return name + "=" + value + " (" + source + ")";
        }
    }

    /** A snapshot by name, component by component: the collector's, and a copy with one part changed. */
    public static final class Builder {
        private String kind = KIND;
        private int schemaVersion = SCHEMA_VERSION;
        private String hostname;
        private String source;
        private String kernel;
        private List<NetLink> interfaces;
        private List<IbDevice> ibDevices;
        private List<String> devInfiniband;
        private Long memlockBytes;
        private Boolean capIpcLock;
        private Long shmBytes;
        private Nvidia nvidia;
        private PciTopology pci;
        private List<AcsBridge> acs;
        private Container container;
        private Map<String, String> env;
        private List<ConfFile> confFiles;
        private Versions versions;
        private NcclProbeResult probe;
        private List<SiteLink> siteLinks;
        private List<Problem> problems;

        private Builder() {
        }

        private Builder(HostSnapshot from) {
            kind = from.kind;
            schemaVersion = from.schemaVersion;
            hostname = from.hostname;
            source = from.source;
            kernel = from.kernel;
            interfaces = from.interfaces;
            ibDevices = from.ibDevices;
            devInfiniband = from.devInfiniband;
            memlockBytes = from.memlockBytes;
            capIpcLock = from.capIpcLock;
            shmBytes = from.shmBytes;
            nvidia = from.nvidia;
            pci = from.pci;
            acs = from.acs;
            container = from.container;
            env = from.env;
            confFiles = from.confFiles;
            versions = from.versions;
            probe = from.probe;
            siteLinks = from.siteLinks;
            problems = from.problems;
        }

        public Builder kind(String value) {
            kind = value;
            return this;
        }

        public Builder schemaVersion(int value) {
            schemaVersion = value;
            return this;
        }

        public Builder hostname(String value) {
            hostname = value;
            return this;
        }

        public Builder source(String value) {
            source = value;
            return this;
        }

        public Builder kernel(String value) {
            kernel = value;
            return this;
        }

        public Builder interfaces(List<NetLink> value) {
            interfaces = value;
            return this;
        }

        public Builder ibDevices(List<IbDevice> value) {
            ibDevices = value;
            return this;
        }

        public Builder devInfiniband(List<String> value) {
            devInfiniband = value;
            return this;
        }

        public Builder memlockBytes(Long value) {
            memlockBytes = value;
            return this;
        }

        public Builder capIpcLock(Boolean value) {
            capIpcLock = value;
            return this;
        }

        public Builder shmBytes(Long value) {
            shmBytes = value;
            return this;
        }

        public Builder nvidia(Nvidia value) {
            nvidia = value;
            return this;
        }

        public Builder pci(PciTopology value) {
            pci = value;
            return this;
        }

        public Builder acs(List<AcsBridge> value) {
            acs = value;
            return this;
        }

        public Builder container(Container value) {
            container = value;
            return this;
        }

        public Builder env(Map<String, String> value) {
            env = value;
            return this;
        }

        public Builder confFiles(List<ConfFile> value) {
            confFiles = value;
            return this;
        }

        public Builder versions(Versions value) {
            versions = value;
            return this;
        }

        public Builder probe(NcclProbeResult value) {
            probe = value;
            return this;
        }

        public Builder siteLinks(List<SiteLink> value) {
            siteLinks = value;
            return this;
        }

        public Builder problems(List<Problem> value) {
            problems = value;
            return this;
        }

        /** The one place the components are listed in order. */
        public HostSnapshot build() {
            return new HostSnapshot(kind, schemaVersion, hostname, source, kernel, interfaces, ibDevices, devInfiniband,
                    memlockBytes, capIpcLock, shmBytes, nvidia, pci, acs, container, env, confFiles, versions, probe,
                    siteLinks, problems);
        }
    }
}
