/** The JNI boundary: the lazy, overridable loader and thin wrappers of the NCCL probe and host reductions. */
package dev.ncclbench.internal.jni;
