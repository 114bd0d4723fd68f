package dev.ncclbench.output;

import java.io.PrintWriter;

/**
 * A verdict that gate and preflight print and file in the same formats: each report says how it renders in each,
 * and one set of output flags writes whichever were asked for, without knowing which report it holds.
 */
public interface Verdicts {
    /** The text for a person (the gate's table and verdict); nothing when it was printed as the steps ran. */
    void text(PrintWriter out);

    /** The one JSON document (--json). */
    String json();

    /** JUnit XML, a test case per line judged (--junit). */
    String junit();

    /** A Markdown summary (--markdown). */
    String markdown();

    /** node-exporter text (--prometheus); null when there is nothing to export. */
    String prometheus();
}
