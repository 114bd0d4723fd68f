package dev.ncclbench.diagnosis;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.nccllog.NcclLogEvidence;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stable, short form of a diagnosis: what `explain --json` puts first and what fixture tests compare.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ExplainSummary(List<String> ncclVersions, List<String> hosts, int ranks, String network, String path,
                             String health, String confidence, int exitCode, List<String> rules, int connections,
                             List<String> netDevices, List<String> socketInterfaces, List<String> bootstrap,
                             int gdrEnabled, int gdrDisabled, int warnings, Map<String, String> env) {

    public static ExplainSummary of(NcclLogEvidence e, Diagnosis d) {
        String network = e.networks().stream().filter(m -> m.kind().equals("network")).map(m -> m.value())
                .findFirst().orElse("");
        Map<String, String> env = new LinkedHashMap<>();
        e.env().forEach(s -> env.putIfAbsent(s.name(), s.value()));
        return new ExplainSummary(e.ncclVersions().stream().map(NcclLogEvidence.Versioned::version).toList(),
                e.hosts(), d.ranks(), network, d.path().id, d.health().name(), d.confidence(),
                d.health().exitCode.code, d.findings().stream().map(Finding::ruleId).distinct().toList(),
                e.connections().size(),
                e.netDevices().stream().map(n -> n.name() + ":" + n.port() + (n.linkLayer().isEmpty() ? ""
                        : "/" + n.linkLayer())).distinct().toList(),
                e.socketIfaces().stream().map(NcclLogEvidence.Interface::name).distinct().toList(),
                e.bootstrap().stream().map(NcclLogEvidence.Interface::name).distinct().toList(),
                (int) e.gdr().stream().filter(NcclLogEvidence.GdrStatus::enabled).count(),
                (int) e.gdr().stream().filter(g -> !g.enabled()).count(), e.warnings().size(), env);
    }
}
