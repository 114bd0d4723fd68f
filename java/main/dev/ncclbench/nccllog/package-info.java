/** Reads NCCL debug output (NCCL 2.3 to 2.30) into evidence, in bounded memory. */
package dev.ncclbench.nccllog;
