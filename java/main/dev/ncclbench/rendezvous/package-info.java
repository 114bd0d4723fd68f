/** The rendezvous store rank 0 serves: who joins, and the addresses and NCCL unique id they exchange. */
package dev.ncclbench.rendezvous;
