/**
 * Reads NCCL debug output (NCCL 2.3 to 2.30) into evidence, in bounded memory, and says what its names mean: the
 * transports and the NET names ("Socket", "IB", a plugin's), read by diagnosis and choices alike.
 */
package dev.ncclbench.nccllog;
