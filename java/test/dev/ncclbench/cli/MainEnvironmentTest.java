package dev.ncclbench.cli;

import dev.ncclbench.collective.AllToAllVPattern;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The environment Main is given is the one every command sees: a test's own map, never the JVM's variables. */
class MainEnvironmentTest {
    private static int run(Map<String, String> env, String... args) {
        return Main.run(args, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), env);
    }

    /** nccl-tests' NCCL_TESTS_ALLTOALLV_SPREAD=0 makes alltoallv uniform; unset, it is fully distance-weighted. */
    @Test
    void alltoallvsSpreadComesFromTheEnvironmentGiven() {
        try {
            assertEquals(0, run(Map.of("NCCL_TESTS_ALLTOALLV_SPREAD", "0"), "--version"));
            // 4 ranks, 64 elements of 4 bytes per peer: 1 KiB a rank, a quarter to each peer, itself included
            AllToAllVPattern uniform = AllToAllVPattern.of(64, 4, 4);
            assertEquals(64, uniform.count(0, 0));
            assertEquals(64, uniform.count(0, 3));
            assertEquals(0, run(Map.of(), "--version"));
            AllToAllVPattern weighted = AllToAllVPattern.of(64, 4, 4);
            assertEquals(0, weighted.count(0, 0), "distance 0 gets nothing");
            // distance d gets d x 1024 / 6 bytes, rounded down to 16: 160 and 336 bytes
            assertEquals(40, weighted.count(0, 1));
            assertEquals(84, weighted.count(0, 2));
        } finally {
            run(Map.of(), "--version"); // the default for whatever runs next in this JVM
        }
    }
}
