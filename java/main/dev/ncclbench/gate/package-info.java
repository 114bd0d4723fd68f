/** The gate: compares a run with its baseline per collective and size and says which lines regressed. */
package dev.ncclbench.gate;
