/** The collectives, one small class each: counts for a size, bandwidth formulas, what every rank must hold. */
package dev.ncclbench.collective;
