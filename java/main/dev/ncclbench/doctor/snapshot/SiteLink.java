package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A link rate a site declared: interfaces whose name (or address, for a CIDR) matches run at this fabric's rate.
 *
 * @param match  an interface name ("rdma0") or a subnet ("192.168.100.0/24")
 * @param gbps   the line rate in Gbit/s
 * @param source "file:line" of the declaration
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SiteLink(String match, String fabric, double gbps, String source) {
}
