/** A sweep's results: the nccl-tests table, the crash-safe JSON result file and the run's folder. */
package dev.ncclbench.results;
