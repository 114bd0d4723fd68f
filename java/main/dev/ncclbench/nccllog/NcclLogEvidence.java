package dev.ncclbench.nccllog;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * Everything the reader extracted from NCCL's debug output, immutable. Every item keeps the file and line it
 * came from. Collections are capped (see {@link NcclLogReader#MAX_ITEMS}); what did not fit is counted in
 * {@link LineCounts}, so a 1 GB log costs the same memory as a 1 MB one.
 *
 * @param sources        the files read, in order ("-" for stdin)
 * @param ncclVersions   distinct NCCL versions seen (banner "NCCL version 2.18.5+cuda12.2")
 * @param cudaVersions   distinct CUDA versions from the banner suffix or "cudaDriverVersion"
 * @param processes      host, pid and the GPU index of each process that logged
 * @param ranks          ranks from "Init START"/"Init COMPLETE" lines
 * @param bootstrap      the bootstrap interface per process
 * @param socketIfaces   the NET/Socket interfaces per process (NCCL uses all of them)
 * @param netDevices     NET/IB (or plugin) devices with port and link layer
 * @param noNetDevice    "NET/IB : No device found." lines
 * @param networks       "Using network X" and plugin lines: what network each process chose
 * @param gdr            per-HCA (or per-GPU, older) GPU Direct RDMA enabled/disabled lines
 * @param connections    connections, aggregated over channels: one item per (host, from, to, side, transport)
 * @param nvls           NVLS lines
 * @param collnet        CollNet lines (CollNet channels, SHARP)
 * @param warnings       WARN lines with NCCL's source file and line, and lines reporting NCCL failures
 * @param env            NCCL_ variables, from "set by environment" lines or a pasted command line
 * @param hostRdma       RDMA devices seen in pasted host tools (ibstat, ibv_devinfo), not NCCL's view
 * @param measured       nccl-tests result rows pasted in the same text
 * @param rings          "Connected all rings, use ring PXN x GDR y" summaries (2.24+)
 * @param topology       job size named outside init lines: nRanks, nNodes (2.19+), ranks a ring lists
 * @param tuning       the algorithm and protocol NCCL chose per collective and size (NCCL_DEBUG_SUBSYS=TUNING, rank 0):
 *                     kind the collective ("" before 2.24), value "SIZE ALGO PROTO"; one item per distinct choice
 * @param progress       each rank's last progress and last Init COMPLETE line, per file
 * @param hostFacts      every host that logged, with its NET connection lines per network: not capped like the lists
 *                       above, so a verdict over a 1024-node job sees all of them ("" holds lines without a host)
 * @param counts         how many lines were read, used, not understood, and items dropped by the caps
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NcclLogEvidence(List<String> sources, List<Versioned> ncclVersions, List<Versioned> cudaVersions,
                              List<ProcessInfo> processes, List<RankInfo> ranks,
                              List<Interface> bootstrap, List<Interface> socketIfaces,
                              List<NetDevice> netDevices, List<Mention> noNetDevice, List<Mention> networks,
                              List<GdrStatus> gdr, List<Connection> connections, List<Mention> nvls,
                              List<Mention> collnet,
                              List<Warning> warnings, List<EnvSetting> env, List<Mention> hostRdma,
                              List<MeasuredRow> measured, List<Mention> rings, List<Mention> topology,
                              List<Mention> tuning, List<Progress> progress, List<HostFacts> hostFacts,
                              LineCounts counts) {

    /** The reader's builder (package-private: evidence is read, never made by hand outside the reader). */
    static Builder builder() {
        return new Builder();
    }

    /** A version string and where it was first seen. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Versioned(String version, String host, SourceRef source) {
    }

    /** One process that logged (one NCCL_DEBUG_FILE, usually). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ProcessInfo(String host, long pid, String device, SourceRef firstLine) {
    }

    /**
     * Where one rank of a process (its "[N]" device) last showed NCCL going on, per file: what tells a warning the rank
     * went on after (a NET plugin probed and absent, a connect retried) from the one that ended it.
     *
     * @param lastProgress     its last connection, chosen network or Init COMPLETE line
     * @param lastInitComplete its last Init COMPLETE line (of any of its communicators), or null
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Progress(String host, long pid, String device, SourceRef lastProgress, SourceRef lastInitComplete) {
    }

    /**
     * A rank as announced by the init line. device is cudaDev; busId as printed; commId as printed ("0x51c2"; ""
     * where the line has none); initComplete says whether "Init COMPLETE" was seen for it.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RankInfo(int rank, int nranks, String host, long pid, int cudaDev, String busId, String commId,
                           boolean initComplete, SourceRef source) {
    }

    /** An interface NCCL reported using: name and address as printed ("10.0.0.1<0>"). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Interface(String host, String name, String address, SourceRef source) {
    }

    /**
     * A network device: index, name (mlx5_0), port, link layer ("IB", "RoCE", or "" when not printed),
     * the network that listed it (IB, IBext, ...), and the flags printed after it (SHARP, RO...).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record NetDevice(String host, String network, int index, String name, int port, String linkLayer,
                            SourceRef source) {
    }

    /** A line worth quoting as it is: a chosen network, a plugin, an NVLS line, a host tool line. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Mention(String host, String kind, String value, SourceRef source) {
    }

    /** GPU Direct RDMA enabled or disabled for one HCA (or GPU, before 2.12); dmabuf when the line says so. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record GdrStatus(String host, String network, int hca, String hcaName, boolean enabled, boolean dmabuf,
                            String text, SourceRef source) {
    }

    /**
     * Connections between two ranks over one transport, aggregated over channels.
     *
     * @param host       the host that printed the line (the sender for [send], the receiver for [receive])
     * @param detail     what follows the transport: "direct pointer", "IPC/read", "CUMEM", "direct/direct"
     * @param netName    for NET: "Socket", "IB", "IBext_v8", "AWS Libfabric"...; else ""
     * @param netDev     for NET: the device index; -1 otherwise
     * @param connIndex  the connection index after the channel ("Channel 02/1"): 1 send/recv and alltoall, 0 rings
     *                   and trees; -1 where the line prints none (before 2.12, SHM)
     * @param proxyRank  the PXN proxy rank (NET/IB/1(3)), -1 when not proxied
     * @param channels   how many distinct channels carried this connection
     * @param lines      how many lines described it
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Connection(String host, int fromRank, int toRank, Direction direction, Transport transport,
                             String detail, String netName, int netDev, int connIndex, int proxyRank, boolean gdr,
                             boolean shared, int channels, long lines, SourceRef firstSeen) {
    }

    /**
     * A WARN line (or an error line printed about NCCL by the application). file and line are NCCL's own
     * source location (bootstrap.cc:126), -1 when not printed; device the header's "[N]" (the rank's CUDA device in
     * its process), "" when not printed.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Warning(String host, long pid, String device, String ncclFile, int ncclLine, String function,
                          String message, boolean afterInit, SourceRef source) {
    }

    /**
     * An NCCL_ variable: from NCCL's "set by environment" line, or from a pasted command line.
     *
     * @param origin {@link #FROM_NCCL} or {@link #FROM_COMMAND_LINE}
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record EnvSetting(String name, String value, String origin, SourceRef source) {
        /** NCCL said it read the variable: what the run used, over a command line pasted beside the log. */
        public static final String FROM_NCCL = "nccl";
        public static final String FROM_COMMAND_LINE = "command line";

        public boolean fromNccl() {
            return FROM_NCCL.equals(origin);
        }
    }

    /** A pasted nccl-tests row: size in bytes and the best busbw of its two placements. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record MeasuredRow(long sizeBytes, String type, double busbwGBps, SourceRef source) {
    }

    /**
     * @param total         lines read
     * @param ncclLines     lines that looked like NCCL output (an INFO/WARN header, or the word NCCL)
     * @param used          NCCL lines something was extracted from
     * @param unused        NCCL lines not understood (the reader's coverage gap, not an error)
     * @param otherLines    lines that were not NCCL's (application output, tables, launcher noise)
     * @param truncated     lines longer than the line limit, cut
     * @param dropped       items not stored because a collection was full (still counted where it matters)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record LineCounts(long total, long ncclLines, long used, long unused, long otherLines, long truncated,
                             long dropped) {
    }

    /**
     * One host of the job: how many processes logged on it and the NET connection lines it printed per network.
     *
     * @param processes distinct pids seen on it
     * @param networks  one entry per network its NET connection lines name, in first-seen order
     * @param chosen    the networks its own processes said they use ("Using network IB", "Assigned NET plugin
     *                  Socket to comm"), in first-seen order; empty where it printed none
     * @param firstLine the first line it printed
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record HostFacts(String host, int processes, List<HostNet> networks, List<String> chosen,
                            SourceRef firstLine) {
    }

    /**
     * NET connection lines of one host over one network ("IB", "Socket", "IBext_v8"), with /GDRDMA and without.
     *
     * @param first      the first such line
     * @param firstOther the first line without /GDRDMA, or null
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record HostNet(String network, long gdrLines, long otherLines, SourceRef first, SourceRef firstOther) {
        public long lines() {
            return gdrLines + otherLines;
        }
    }

    /** The distinct hosts that logged anything, in first-seen order: every one, not capped. */
    public List<String> hosts() {
        return hostFacts.stream().map(HostFacts::host).filter(h -> !h.isEmpty()).toList();
    }

    /** The first value of an NCCL_ variable, from NCCL's own line when there is one. */
    public java.util.Optional<EnvSetting> envValue(String name) {
        EnvSetting best = null;
        for (EnvSetting e : env) {
            if (e.name().equals(name)) {
                if (e.fromNccl()) {
                    return java.util.Optional.of(e);
                }
                if (best == null) {
                    best = e;
                }
            }
        }
        return java.util.Optional.ofNullable(best);
    }

    /** The evidence by name, list by list: what the reader's accumulator hands over when a read ends. */
    static final class Builder {
        private List<String> sources;
        private List<Versioned> ncclVersions;
        private List<Versioned> cudaVersions;
        private List<ProcessInfo> processes;
        private List<RankInfo> ranks;
        private List<Interface> bootstrap;
        private List<Interface> socketIfaces;
        private List<NetDevice> netDevices;
        private List<Mention> noNetDevice;
        private List<Mention> networks;
        private List<GdrStatus> gdr;
        private List<Connection> connections;
        private List<Mention> nvls;
        private List<Mention> collnet;
        private List<Warning> warnings;
        private List<EnvSetting> env;
        private List<Mention> hostRdma;
        private List<MeasuredRow> measured;
        private List<Mention> rings;
        private List<Mention> topology;
        private List<Mention> tuning;
        private List<Progress> progress;
        private List<HostFacts> hostFacts;
        private LineCounts counts;

        private Builder() {
        }


        Builder sources(List<String> value) {
            sources = value;
            return this;
        }

        Builder ncclVersions(List<Versioned> value) {
            ncclVersions = value;
            return this;
        }

        Builder cudaVersions(List<Versioned> value) {
            cudaVersions = value;
            return this;
        }

        Builder processes(List<ProcessInfo> value) {
            processes = value;
            return this;
        }

        Builder ranks(List<RankInfo> value) {
            ranks = value;
            return this;
        }

        Builder bootstrap(List<Interface> value) {
            bootstrap = value;
            return this;
        }

        Builder socketIfaces(List<Interface> value) {
            socketIfaces = value;
            return this;
        }

        Builder netDevices(List<NetDevice> value) {
            netDevices = value;
            return this;
        }

        Builder noNetDevice(List<Mention> value) {
            noNetDevice = value;
            return this;
        }

        Builder networks(List<Mention> value) {
            networks = value;
            return this;
        }

        Builder gdr(List<GdrStatus> value) {
            gdr = value;
            return this;
        }

        Builder connections(List<Connection> value) {
            connections = value;
            return this;
        }

        Builder nvls(List<Mention> value) {
            nvls = value;
            return this;
        }

        Builder collnet(List<Mention> value) {
            collnet = value;
            return this;
        }

        Builder warnings(List<Warning> value) {
            warnings = value;
            return this;
        }

        Builder env(List<EnvSetting> value) {
            env = value;
            return this;
        }

        Builder hostRdma(List<Mention> value) {
            hostRdma = value;
            return this;
        }

        Builder measured(List<MeasuredRow> value) {
            measured = value;
            return this;
        }

        Builder rings(List<Mention> value) {
            rings = value;
            return this;
        }

        Builder topology(List<Mention> value) {
            topology = value;
            return this;
        }

        Builder tuning(List<Mention> value) {
            tuning = value;
            return this;
        }

        Builder progress(List<Progress> value) {
            progress = value;
            return this;
        }

        Builder hostFacts(List<HostFacts> value) {
            hostFacts = value;
            return this;
        }

        Builder counts(LineCounts value) {
            counts = value;
            return this;
        }

        /** The one place the components are listed in order. */
        NcclLogEvidence build() {
            return new NcclLogEvidence(sources, ncclVersions, cudaVersions, processes, ranks, bootstrap, socketIfaces,
                    netDevices, noNetDevice, networks, gdr, connections, nvls, collnet, warnings, env, hostRdma,
                    measured, rings, topology, tuning, progress, hostFacts, counts);
        }
    }
}
