/** What every package shares: the exit-code table, the tool's exception, its version, redaction, the hang report. */
package dev.ncclbench;
