package dev.ncclbench.diagnosis.facts;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * What one NIC of one host carried, read from NCCL's channel lines ("Channel 00/0 : 0[0] -> 8[0] [send] via
 * NET/IB/3/GDRDMA") joined with the NICs NCCL listed at init on that host ("NET/IB : Using [0]mlx5_0:1/IB ...").
 *
 * @param nic          NCCL's name: "mlx5_3", a merged port "mlx5_0+mlx5_1", an interface "eth1"; "IB/5" when the
 *                     host's list was not in the log
 * @param index        NCCL's device number, the n of NET/IB/n
 * @param linkLayer    "IB", "RoCE", "" when not printed
 * @param listed       whether this host's list names it (only a listed NIC can be said to carry nothing)
 * @param channels     ring and tree channels (connection index 0), each side of a channel counted once: a [send]
 *                     and a [receive] line of one channel are two
 * @param p2pChannels  send/recv and alltoall channels (connection index 1, made when the job first sends)
 * @param peers        distinct ranks on the other end of those channels
 * @param verdict      {@link #OK}, {@link #UNUSED}, {@link #OVERLOADED} or {@link #UNJUDGED}
 * @param why          the numbers behind the verdict, or why it was not judged
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NicLoad(String host, String network, String nic, int index, String linkLayer, boolean listed,
                      int channels, int p2pChannels, int peers, String verdict, String why) {
    public static final String OK = "ok";
    public static final String UNUSED = "unused";
    public static final String OVERLOADED = "overloaded";
    public static final String UNJUDGED = "not judged";

    NicLoad judged(String verdict, String why) {
        return new NicLoad(host, network, nic, index, linkLayer, listed, channels, p2pChannels, peers, verdict, why);
    }

    /** Both kinds of channel together. */
    public int allChannels() {
        return channels + p2pChannels;
    }
}
