/** Doctor's rule book: one class per rule over a host snapshot. */
package dev.ncclbench.doctor.rules;
