package dev.ncclbench.gate;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * Where the gate looked for a baseline and found none that was measured as the run was: the verdict NO_BASELINE
 * says it (exit 7), since a gate that compared nothing has not passed. Written into the gate's JSON as
 * "no_baseline".
 *
 * @param folder        the baseline folder searched (baseline/BaselineFolder)
 * @param baselines     how many baselines it holds, none of which matched; -1 when the folder does not exist
 * @param fingerprintId the run's fingerprint id
 * @param measuredAs    the run as a baseline must match it: topology, versions, collectives, type and op
 * @param record        the command that records this run as the baseline the gate would find
 */
@JsonPropertyOrder({"folder", "baselines", "fingerprint_id", "measured_as", "record"})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NoBaseline(String folder, int baselines, String fingerprintId, String measuredAs, String record) {

    /** "none of the 2 baselines in /x/results/baselines was measured as this run was (socket, 1 node, ...)". */
    @JsonIgnore
    public String sentence() {
        String where = baselines < 0 ? folder + " does not exist"
                : baselines == 0 ? "there is no baseline in " + folder
                : (baselines == 1 ? "the one baseline in " + folder + " was not"
                : "none of the " + baselines + " baselines in " + folder + " was") + " measured as this run was";
        return where + " (this run: " + measuredAs + "; fingerprint " + fingerprintId + ")";
    }

    /** The sentence and what to do about it: record one, or ask for the curve check alone. */
    @JsonIgnore
    public String text() {
        return sentence() + "; record one: " + record + "; or give --curve-only to judge the curve alone";
    }
}
