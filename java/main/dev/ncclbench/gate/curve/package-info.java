/** The curve check's rule book: dips, latency drops and stalls along one run's busbw curve. */
package dev.ncclbench.gate.curve;
