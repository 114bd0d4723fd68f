/** One sweep end to end: launch, backend, rendezvous, every size timed, then rank 0's report. */
package dev.ncclbench.sweep;
