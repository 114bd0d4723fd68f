/** The native boundary: outside backend.nccl, only the packages under this one touch org.bytedeco. */
package dev.ncclbench.internal;
