/** Explain's rule book: one class per rule over a log's facts. */
package dev.ncclbench.diagnosis.rules;
