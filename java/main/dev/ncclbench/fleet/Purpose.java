package dev.ncclbench.fleet;

/** Why the planner put a group into a round: what its result is evidence for. */
public enum Purpose {
    /** Pass one: every node measured with some partner (random pairs, every pair at once, or a round robin). */
    SURVEY("survey"),
    /** Pass two: a member of a slow pair measured with a node already proven good. */
    CROSS_CHECK("cross-check"),
    /** A slow link between two good nodes measured again, alone. */
    CONFIRM_LINK("confirm link"),
    /** Two good nodes measured in the same round: the reference under the round's conditions, and a new link. */
    CONTROL("control"),
    /** Groups larger than two, over nodes good in pairs. */
    GROUP_SURVEY("group survey"),
    /** Half the suspects of a slow group with nodes proven good at that size. */
    BISECT("bisect"),
    /** After the node rounds: rail r of one node with rail r of another, the traffic held to that rail. */
    RAIL("rail");

    public final String label;

    Purpose(String label) {
        this.label = label;
    }
}
