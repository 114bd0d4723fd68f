/** Finds the native libraries without loading them; asks the real NCCL, in a child process, how it bootstraps. */
package dev.ncclbench.env;
