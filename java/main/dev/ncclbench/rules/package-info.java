/** Every rule book in one list (explain, doctor, compare, curve, env): what `ncclbench rules` prints and `--ignore` accepts. */
package dev.ncclbench.rules;
