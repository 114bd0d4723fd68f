/** Explain's judgement of an NCCL log: facts from the evidence, the rule book, the path and the health. */
package dev.ncclbench.diagnosis;
