/** Findings and rule books: a rule's id, severity and remedy, the book that runs rules, and --fail-on. */
package dev.ncclbench.finding;
