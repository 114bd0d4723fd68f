package dev.ncclbench.choices;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Map;

/**
 * What NCCL decided in one run, as its log says, small enough to keep in every result and baseline. Null means
 * the log did not say (a fact not logged is unknown, never "off"); an empty map means it said there was none.
 *
 * @param ncclVersion the NCCL version ("2.28.9+cuda13.0"), several joined with ", " when processes differ
 * @param nodes       nNodes, or the hosts that logged; null when not printed
 * @param ranks       the job's rank count; null when not printed
 * @param networks    the networks the processes said they use ("IB", "Socket", a plugin), first-seen order
 * @param netRoutes   NET pairs (from rank, to rank) by route: "NET/IB/GDRDMA", "NET/IB", "NET/Socket", and
 *                    "NET/IB/GDRDMA send only" (receive only) where the two sides differ
 * @param netExamples one connection as NCCL printed it per route ("NET/IB/0/GDRDMA")
 * @param hostRoute   the route most hosts' NET lines took (multi-node only): "NET/IB/GDRDMA", "NET/Socket"...
 * @param hostsOther  hosts whose NET lines took another route than hostRoute, with theirs
 * @param nics        the NICs NCCL listed for the networks it used ("mlx5_0:1/IB"), in index order
 * @param nicsUsed    distinct NICs the NET connections of one process used, the most over processes
 * @param channels    "N coll channels", the most over processes
 * @param intra       intra-node pairs by transport: "P2P/CUMEM", "P2P/IPC", "P2P/direct pointer", "SHM"
 * @param pxn         whether NET connections went through a PXN proxy (or "use ring PXN 1"); null if not said
 * @param nvls        whether NVLS was set up; null if not said
 * @param collnet     whether CollNet was set up; null if not said
 * @param tuning      per collective, size in bytes to "ALGO PROTO" (NCCL_DEBUG_SUBSYS=TUNING); empty when not logged
 * @param env         the NCCL_ settings NCCL said it read ("set by environment"), secrets redacted
 * @param logFiles    how many log files it was read from
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NcclChoices(String ncclVersion, Integer nodes, Integer ranks, List<String> networks,
                          Map<String, Integer> netRoutes, Map<String, String> netExamples, String hostRoute,
                          Map<String, String> hostsOther, List<String> nics, Integer nicsUsed, Integer channels,
                          Map<String, Integer> intra, Boolean pxn, Boolean nvls, Boolean collnet,
                          Map<String, Map<Long, String>> tuning, Map<String, String> env, int logFiles) {

    public NcclChoices {
        networks = networks == null ? List.of() : List.copyOf(networks);
        netRoutes = netRoutes == null ? Map.of() : netRoutes;
        netExamples = netExamples == null ? Map.of() : netExamples;
        hostsOther = hostsOther == null ? Map.of() : hostsOther;
        nics = nics == null ? List.of() : List.copyOf(nics);
        intra = intra == null ? Map.of() : intra;
        tuning = tuning == null ? Map.of() : tuning;
        env = env == null ? Map.of() : env;
    }

    /** NET pairs in all. */
    public int netPairs() {
        return netRoutes.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** NET pairs whose every side used GPUDirect RDMA. */
    public int gdrPairs() {
        return netRoutes.entrySet().stream().filter(e -> e.getKey().endsWith("/GDRDMA"))
                .mapToInt(Map.Entry::getValue).sum();
    }
}
