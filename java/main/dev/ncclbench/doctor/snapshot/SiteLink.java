package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.diagnosis.FabricCatalog;

import java.util.Collection;

/**
 * A link rate a site declared: interfaces whose name (or address, for a CIDR) matches run at this fabric's rate.
 *
 * @param match  a name ("rdma0", "mlx5_3", "mlx5_3:1"), a prefix ending in '*' or a subnet ("192.168.100.0/24")
 * @param gbps   the line rate in Gbit/s
 * @param source "file:line" of the declaration
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SiteLink(String match, String fabric, double gbps, String source) {
    /** Whether this line names the link: the catalog's one matcher, {@link FabricCatalog.Site#covers}. */
    public boolean covers(Collection<String> names, Collection<String> addresses) {
        return FabricCatalog.Site.covers(match, names, addresses);
    }
}
