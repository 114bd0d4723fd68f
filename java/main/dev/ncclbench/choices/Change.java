package dev.ncclbench.choices;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One thing NCCL decided differently.
 *
 * @param fact    which choice: "network", "gdr", "nics", "intra", "nvls", "collnet", "channels", "pxn", "tuning",
 *                "version", "env"
 * @param what    the change in a few words: "GPUDirect RDMA off on 2 of 2 pairs"
 * @param before  the choice before, as NCCL printed it where it did ("NET/IB/0/GDRDMA")
 * @param after   the choice after
 * @param effect  what it does to the bytes
 * @param where   the hosts it concerns when not all of them, else null
 * @param weight  how consequential: changes are ordered by it, heaviest first
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Change(String fact, String what, String before, String after, String effect, String where,
                     @JsonIgnore int weight) {

    /** One line for preflight and the gate: "NCCL now on NET/Socket on node7 (was NET/IB/GDRDMA)". */
    public String headline() {
        return what + (where == null ? "" : " on " + where) + " (was " + before + ")";
    }
}
