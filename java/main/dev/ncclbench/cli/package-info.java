/** The commands: picocli parses, one library call does the work, the command prints. */
package dev.ncclbench.cli;
