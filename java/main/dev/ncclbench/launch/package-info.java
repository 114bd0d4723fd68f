/** Who this process is: rank, world size and local rank from torchrun, Slurm, Open MPI, PMI or flags. */
package dev.ncclbench.launch;
