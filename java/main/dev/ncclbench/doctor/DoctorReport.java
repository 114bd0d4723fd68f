package dev.ncclbench.doctor;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;

import java.util.List;

/**
 * The verdict on one host: findings worst first, NCCL's predicted interfaces, and what the real NCCL chose.
 *
 * @param failed whether a finding reaches the --fail-on threshold (exit 3)
 * @param rails  each GPU with its NIC port(s), their state, rate and link layer, and a verdict per rail
 */
@JsonPropertyOrder({"kind", "schema_version", "host", "failed", "findings", "rails", "bootstrap", "socket_interfaces", "nccl_rules",
    "probe"})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record DoctorReport(String kind, int schemaVersion, String host, boolean failed, List<Finding> findings, RailTable rails,
                           Prediction.Bootstrap bootstrap,
                           List<Prediction.Endpoint> socketInterfaces, String ncclRules, Probe probe, @JsonIgnore HostSnapshot snapshot) {
    public static final String KIND = "ncclbench.doctor";
    /** 2: kind and schema_version replace "schema": "ncclbench.doctor/1"; snake_case keys; findings as in Finding. */
    public static final int SCHEMA_VERSION = 2;

    /** What the real NCCL said, beside the prediction; null when it was not run. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Probe(String library, String version, @JsonProperty("interface") String iface, String address,
                        boolean agrees, String problem) {
    }

    public long count(Severity s) {
        return findings.stream().filter(f -> f.severity() == s).count();
    }

    /** The finding of this rule id, if any. */
    public java.util.Optional<Finding> finding(String id) {
        return findings.stream().filter(f -> f.ruleId().equals(id)).findFirst();
    }
}
