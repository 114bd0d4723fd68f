/**
 * Explain's judgement of an NCCL log: facts from the evidence, the rule book, the path and the health; and what the
 * path verdict compares with (the fabric catalog, --fabric, --socket-floor: RouteOptions), for every command alike.
 */
package dev.ncclbench.diagnosis;
