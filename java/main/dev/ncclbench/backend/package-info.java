/** The backend SPI: a way to move bytes between ranks, found through ServiceLoader, asked for capabilities. */
package dev.ncclbench.backend;
