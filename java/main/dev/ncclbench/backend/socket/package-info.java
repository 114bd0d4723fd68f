/** The socket backend: ranks joined by real TCP sockets on the interfaces NCCL would pick (the socket floor). */
package dev.ncclbench.backend.socket;
