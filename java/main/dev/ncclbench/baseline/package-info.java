/** Baselines: a run's per-iteration samples and fingerprint, recorded for the gate to compare against. */
package dev.ncclbench.baseline;
