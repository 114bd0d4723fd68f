/** The self-contained HTML report: plots as inline SVG, the verdict, the per-size table, the findings. */
package dev.ncclbench.report;
