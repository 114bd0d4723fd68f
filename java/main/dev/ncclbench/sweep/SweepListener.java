package dev.ncclbench.sweep;

import dev.ncclbench.results.ResultRow;

/** What rank 0's sweep reports as it goes; the runner turns it into tables, JSON and verdicts. */
public interface SweepListener {
    void beginCollective(String collective);

    /**
     * @param wrongRanksOutOfPlace ranks that saw wrong elements out of place (for the "Out of bounds" footer)
     * @param wrongRanksInPlace    the same in place
     */
    void row(ResultRow row, int wrongRanksOutOfPlace, int wrongRanksInPlace);

    void endCollective(String collective);
}
