package dev.ncclbench.cli;

import java.util.Map;

/**
 * A command that needs the process's environment. {@link Main} reads the environment once and hands it to each
 * such command before it runs; a test hands its own map, so that no test depends on the variables its JVM has.
 */
interface ReadsEnvironment {
    void environment(Map<String, String> env);
}
