package dev.ncclbench.doctor.predict;

import com.fasterxml.jackson.annotation.JsonValue;

/** What is wrong with one rail, worst first; OK when nothing is. Each kind other than OK is a doctor rule. */
public enum RailVerdict {
    /** A port of the rail is not ACTIVE / LinkUp: NCCL skips it and the GPU's traffic goes through another NIC. */
    DOWN("down"),
    /** An InfiniBand port among Ethernet ones, or the reverse: it reaches no peer the others reach. */
    WRONG_LINK_LAYER("wrong link layer"),
    /** Active, but at a lower rate or width than its siblings or the fabric the site declared. */
    TRAINED_DOWN("trained down"),
    /** NCCL_IB_HCA (or NCCL_SOCKET_IFNAME) leaves out every port of the rail: NCCL never uses it. */
    EXCLUDED("excluded"),
    /** The GPU's nearest NIC is across the CPU sockets (SYS), or there is no NIC at all. */
    NO_NIC_NEAR("no NIC near"),
    OK("ok");

    /** The word the table and JSON print. */
    public final String word;

    RailVerdict(String word) {
        this.word = word;
    }

    @JsonValue
    public String word() {
        return word;
    }
}
