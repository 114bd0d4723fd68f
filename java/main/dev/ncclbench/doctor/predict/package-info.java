/** Predicts from a host snapshot the interfaces NCCL will choose and the rates of their links. */
package dev.ncclbench.doctor.predict;
