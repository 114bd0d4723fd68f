package dev.ncclbench.choices;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Optional;

/**
 * What NCCL decided differently between two runs.
 *
 * @param job     a sentence when the two runs are different jobs (node or rank count), said before the changes;
 *                null when they are the same job or a side does not say
 * @param changes the changes, most consequential first
 * @param same    the choices both sides logged and agree on, each in a few words
 * @param unknown the choices only one side logged ("channels: not in the AFTER log"): never counted as unchanged
 * @param known   false when a side has no NCCL choices at all (no log): nothing can be said to be unchanged
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Comparison(String job, List<Change> changes, List<String> same, List<String> unknown, boolean known) {

    public Comparison {
        changes = List.copyOf(changes);
        same = List.copyOf(same);
        unknown = List.copyOf(unknown);
    }

    /** A side without a log: the choices are unknown, which is not "no change". */
    public static Comparison unknown(String why) {
        return new Comparison(null, List.of(), List.of(), List.of(why), false);
    }

    public Optional<Change> first() {
        return changes.stream().findFirst();
    }

    /**
     * The comparison as lines for a report beside a verdict: the job first when it differs, each change with its
     * effect, and "no change" only when both sides were known.
     */
    public List<String> lines() {
        List<String> l = new java.util.ArrayList<>();
        if (job != null) {
            l.add(job);
        }
        if (!known) {
            l.add(sameLine());
            return l;
        }
        if (changes.isEmpty()) {
            l.add("no change in what NCCL decided (" + sameLine() + ")");
        }
        for (Change c : changes) {
            l.add(c.what() + (c.where() == null ? "" : " on " + c.where()) + ": " + c.before() + " -> " + c.after()
                    + "; " + c.effect());
        }
        return l;
    }

    /** "same: network IB, ..." in one line, or why nothing could be compared. */
    public String sameLine() {
        if (!known) {
            return "NCCL's choices are unknown: " + String.join("; ", unknown);
        }
        return same.isEmpty() ? "nothing both logs state stayed the same" : "same: " + String.join(", ", same);
    }
}
