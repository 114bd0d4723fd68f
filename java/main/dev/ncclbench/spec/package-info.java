/** The resolved options of one sweep, with every default from one class. */
package dev.ncclbench.spec;
