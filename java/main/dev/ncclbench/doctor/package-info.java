/** Doctor as a library call: collect or load a host snapshot, ask the real NCCL, judge with the rule book. */
package dev.ncclbench.doctor;
