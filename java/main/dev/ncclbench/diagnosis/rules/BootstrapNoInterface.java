package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.nccllog.NcclLogEvidence.EnvSetting;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Bootstrap found no socket interface: NCCL_SOCKET_IFNAME matches nothing, and NCCL does not fall back. */
public final class BootstrapNoInterface extends BaseRule<Facts> {
    public BootstrapNoInterface() {
        super("BOOTSTRAP-NO-INTERFACE", Severity.ERROR,
                "bootstrap found no socket interface (NCCL_SOCKET_IFNAME matches nothing): the job dies at init");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.evidence().warnings().stream()
                .filter(w -> w.message().contains("no socket interface found")).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        List<String> ev = new ArrayList<>(Lines.warnings(ws));
        List<String> remedy = new ArrayList<>();
        Optional<EnvSetting> ifname = f.env("NCCL_SOCKET_IFNAME");
        remedy.add("ip -br addr          # the interfaces this host (or container) really has");
        if (ifname.isPresent()) {
            ev.add(ifname.get().source() + ": NCCL_SOCKET_IFNAME=" + ifname.get().value() + " ("
                    + ifname.get().origin() + ")");
            String other = f.evidence().socketIfaces().stream().map(Interface::name).findFirst()
                    .or(() -> f.evidence().bootstrap().stream().map(Interface::name)
                            .filter(n -> !n.startsWith("oob:")).findFirst())
                    .orElse("<an interface from ip -br addr, e.g. eth0>");
            remedy.add("export NCCL_SOCKET_IFNAME=" + other + "   # was '" + ifname.get().value()
                    + "', which matches no interface; or unset it and let NCCL choose");
            remedy.add("in a container, the host's interface names may not exist: use the name inside it");
        } else {
            remedy.add("no interface NCCL accepts is up: check that one is UP with an IPv4/IPv6 address"
                    + " (NCCL skips lo unless nothing else exists)");
        }
        remedy.add("mind the syntax: prefixes, comma-separated; ^ excludes; = exact (^=docker0); one character is"
                + " ignored");
        return List.of(finding(Severity.ERROR,
                "bootstrap found no socket interface: the job dies before any collective",
                "NCCL's bootstrap opens a TCP socket on an interface chosen by NCCL_SOCKET_IFNAME (or its default"
                        + " order). When the setting matches nothing NCCL does not fall back: ncclGetUniqueId fails"
                        + " with 'invalid usage' (>= 2.24) and nccl-tests exits 3. The GPUs are not at fault.",
                ev, remedy, References.ENV_DOC + "#nccl-socket-ifname"));
    }
}
