/** How NCCL picks its socket interfaces, implemented once for the socket backend and the predictions. */
package dev.ncclbench.netif;
