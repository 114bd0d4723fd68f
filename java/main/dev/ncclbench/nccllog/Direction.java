package dev.ncclbench.nccllog;

/** The side of a connection a line describes; P2P and SHM lines name no side. */
public enum Direction {
    SEND, RECEIVE, UNSPECIFIED
}
