/** What explain's rules ask about a log, computed once from the evidence and immutable. */
package dev.ncclbench.diagnosis.facts;
