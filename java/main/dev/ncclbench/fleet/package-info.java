/** Fleet: one process per node searches an allocation's nodes and links for the slow ones. */
package dev.ncclbench.fleet;
