/** Doctor's rule book: one class per rule over a host's evidence (its snapshot and the rail table derived once: HostEvidence). */
package dev.ncclbench.doctor.rules;
