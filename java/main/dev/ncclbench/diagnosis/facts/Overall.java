package dev.ncclbench.diagnosis.facts;

import java.util.List;

/**
 * The overall path of a job and what it rests on.
 *
 * @param path        for multi-node jobs the inter-node one (the bottleneck)
 * @param confidence  "certain" (connection lines), "likely" (indirect lines), "unknown"
 * @param basis       "from 12 NET connection line group(s) in NCCL's log"
 * @param network     the NET name of the worst inter-node pair, or NCCL's chosen network; "" intra-node
 * @param evidence    the lines the verdict rests on
 */
public record Overall(RouteKind path, String confidence, String basis, String network, List<String> evidence) {
    public Overall {
        evidence = List.copyOf(evidence);
    }

    static Overall unknown() {
        return new Overall(RouteKind.UNKNOWN, "unknown", "", "", List.of());
    }
}
