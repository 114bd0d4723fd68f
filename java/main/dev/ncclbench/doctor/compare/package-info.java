/** Doctor --compare: the rules that judge several hosts' snapshots against each other. */
package dev.ncclbench.doctor.compare;
