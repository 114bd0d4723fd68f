/**
 * What NCCL decided in a run (network, GPUDirect RDMA per pair, NICs, channels, P2P mode, PXN, NVLS, CollNet,
 * algorithm and protocol, the NCCL_ settings it read, its version), read from its log, and what changed between
 * two runs, each change with what it does to the bytes. Used by explain --compare, the result file, the gate and
 * preflight; it knows nothing of them.
 */
package dev.ncclbench.choices;
