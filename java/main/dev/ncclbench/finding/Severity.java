package dev.ncclbench.finding;

/** How much a finding matters: ERROR stops a job or degrades its path, WARNING deserves a look. */
public enum Severity {
    INFO, WARNING, ERROR
}
