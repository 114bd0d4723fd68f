package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A NET plugin's progress function warned that transfers were slow (GPUDirect-TCPX's "rx ctrl timeout cnt N, nanos
 * M" on each NIC). The job goes on: it is a warning about speed, never an init failure, and the path stays the
 * plugin's.
 */
public final class NetPluginSlowProgress extends BaseRule<Facts> {
    public NetPluginSlowProgress() {
        super("NET-PLUGIN-SLOW-PROGRESS", Severity.WARNING,
                "a NET plugin's progress function warned that transfers waited past its threshold (TCPX ctrl timeout)");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.evidence().warnings().stream()
                .filter(w -> FailureKind.of(w) == FailureKind.SLOW_PROGRESS).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        Set<String> nics = new LinkedHashSet<>();
        for (Warning w : ws) {
            // "0x..:0x.., nic 0, eth1, <flow> rx ctrl timeout cnt 1, nanos 500001359": the NIC is the third field
            String[] parts = w.message().split(",\\s*");
            if (parts.length > 2 && parts[1].startsWith("nic ")) {
                nics.add(parts[2].strip());
            }
        }
        return List.of(finding(Severity.WARNING, "the network plugin's progress function warned " + ws.size()
                        + " time(s) that transfers were slow" + (nics.isEmpty() ? "" : " (on " + String.join(", ",
                        nics) + ")"),
                "Not an init failure: the plugin's progress thread counts control messages that waited past its"
                        + " threshold (500 ms for TCPX) and carries on. Once per NIC at the first collective is"
                        + " usually the slow first connection set-up; warnings that keep coming mean a slow or"
                        + " lossy NIC path.",
                Lines.warnings(ws),
                List.of("compare busbw per NIC; check the plugin's NIC and IRQ bindings (TCPX: the rx/tx bindings"
                        + " of its env) and the VPC's MTU"), References.NET_DOC));
    }
}
