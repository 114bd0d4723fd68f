/** Preflight's one verdict from what its steps said: doctor, a short sweep, the path verdict, the gate. */
package dev.ncclbench.preflight;
