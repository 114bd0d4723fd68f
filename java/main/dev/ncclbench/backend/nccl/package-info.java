/** The NCCL backend: libnccl, libcudart and NVML through JavaCPP, and the kernels that fill and check buffers. */
package dev.ncclbench.backend.nccl;
