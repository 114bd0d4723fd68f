package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostSnapshot;

/**
 * What doctor's rules judge: a host's snapshot and the rail table derived from it once (PCI topology walked, each GPU's
 * NIC picked), which the rail rules, IB-PORT-NOT-ACTIVE, NCCL_NET_GDR_LEVEL's rule and the report all read.
 *
 * @param rails {@code RailTable.of(snapshot)}
 */
public record HostEvidence(HostSnapshot snapshot, RailTable rails) {
    public static HostEvidence of(HostSnapshot s) {
        return new HostEvidence(s, RailTable.of(s));
    }
}
