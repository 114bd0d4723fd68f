package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;

import java.util.Locale;
import java.util.Optional;

/**
 * What a log says about the reach of a job and the transports it set up without per-channel lines: one node or
 * several, NVLS and CollNet in use, the NET plugin that carries the traffic and its provider, and NET/Socket as the
 * only network NCCL brought up. Every answer comes from NCCL's (or the plugin's) own INFO lines.
 */
final class Scope {
    private Scope() {
    }

    /**
     * One node for certain: a single host logged and NCCL said so ("nRanks 8 nNodes 1", 2.19+), or every rank of the
     * job is local ("localRanks 8" with nRanks 8). "Using network X" is printed on one node too, so it says nothing.
     */
    static boolean singleNode(NcclLogEvidence e) {
        if (e.hosts().size() > 1) {
            return false;
        }
        boolean one = false;
        for (Mention m : e.topology()) {
            if (m.kind().equals("nodes")) {
                if (!m.value().equals("1")) {
                    return false;
                }
                one = true;
            }
        }
        return one;
    }

    /** NVLS buffers were set up: "NVLS comm 0x.. headRank", "Connected NVLS", or "N nvls channels" with N > 0. */
    static Optional<Mention> nvlsUsed(NcclLogEvidence e) {
        for (Mention m : e.nvls()) {
            String v = m.value();
            if (v.startsWith("Connected NVLS") || v.contains("NVLS comm") || v.contains("NVLS Head")) {
                return Optional.of(m);
            }
            int at = v.indexOf(" nvls channels");
            if (at > 0) {
                int b = v.lastIndexOf(' ', at - 1);
                String n = v.substring(b + 1, at);
                if (!n.isEmpty() && n.length() < 9 && n.chars().allMatch(Character::isDigit) && Integer.parseInt(n) > 0) {
                    return Optional.of(m);
                }
            }
        }
        return Optional.empty();
    }

    /** CollNet connected: "CollNet 00/0 : 0 [send] via COLLNET/...", "rank 0 Connected CollNet", "Connected collnet". */
    static Optional<Mention> collnetUsed(NcclLogEvidence e) {
        return e.collnet().stream().filter(m -> m.value().contains("via COLLNET")
                || m.value().toLowerCase(Locale.ROOT).contains("connected collnet")).findFirst();
    }

    /**
     * The NET plugin that carries the traffic when no connection line names it: NCCL's choice ("Using network AWS
     * Libfabric", "Assigned NET plugin Libfabric to comm"), else a plugin that initialised ("Initialized NET plugin
     * GPUDirectTCPX_v7", aws-ofi-nccl's "Selected Provider is efa", "NET/GPUDirectTCPX plugin initialized").
     */
    static Optional<Mention> plugin(NcclLogEvidence e) {
        Optional<Mention> chosen = e.networks().stream().filter(m -> m.kind().equals("network")).findFirst();
        if (chosen.isPresent()) {
            String n = chosen.get().value();
            return Networks.isSocket(n) || Networks.isIb(n) ? Optional.empty() : chosen;
        }
        for (Mention m : e.networks()) {
            if (m.kind().equals("plugin") && !Networks.isSocket(m.value()) && !Networks.isIb(m.value())
                    && !m.value().startsWith("NET/Plugin") && !m.value().startsWith("Plugin Path")
                    && !m.value().startsWith("P2P plugin") && !failed(e, m.value())) {
                return Optional.of(m);
            }
        }
        return e.networks().stream().filter(m -> m.kind().equals("provider")).findFirst()
                .map(m -> new Mention(m.host(), "plugin", "AWS Libfabric", m.source()));
    }

    private static boolean failed(NcclLogEvidence e, String name) {
        return e.networks().stream().anyMatch(m -> m.kind().equals("plugin-failed") && m.value().equals(name));
    }

    /** The provider the plugin selected ("efa"), or "". */
    static String provider(NcclLogEvidence e) {
        return e.networks().stream().filter(m -> m.kind().equals("provider")).map(Mention::value).findFirst()
                .orElse("");
    }

    /** What fabric a plugin serves, in words, from its name and provider. */
    static String fabricOf(String plugin, String provider) {
        String p = plugin.toLowerCase(Locale.ROOT);
        if (!provider.isEmpty()) {
            return "provider " + provider + (provider.equalsIgnoreCase("efa") ? " (AWS EFA)" : "");
        }
        if (p.contains("libfabric") || p.contains("ofi")) {
            return "libfabric (AWS EFA when the provider is efa)";
        }
        if (p.contains("tcpx")) {
            return "GPUDirect-TCPX over the VM's TCP NICs (GCP A3)";
        }
        if (p.contains("fastrak")) {
            return "GPUDirect-TCPXO (FasTrak, GCP A3 Mega)";
        }
        return "";
    }
}
