/** Collects a host's evidence (GPUs, NICs, RDMA, PCIe, limits, NCCL) into one immutable snapshot. */
package dev.ncclbench.doctor.snapshot;
