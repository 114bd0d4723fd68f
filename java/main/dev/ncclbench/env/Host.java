package dev.ncclbench.env;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The machine and process one command runs in, as a value: the environment it was started with, the native
 * libraries found from it, and what was learnt from them once (the nccl backend's readiness). cli/Main builds one
 * from the process's environment and every command reaches it through the root command; a test builds its own from a
 * map, so nothing below the command line sees the JVM's variables, and a second command in one JVM gets its own
 * answers.
 *
 * <p>A setting is read by name ({@link #get} with a {@link Variable}); the whole environment ({@link #variables}) is
 * only for what needs it whole: the variables a result records (results/RecordedEnvironment, secrets redacted), a
 * child process's environment (ProbeRunner), and the environment doctor judges and keeps in its snapshot.
 */
public final class Host {
    private final Map<String, String> variables;
    /** Answers found once per Host (the libraries, the nccl backend's readiness), by the class of the answer. */
    private final Map<Class<?>, Object> found = new HashMap<>();

    private Host(Map<String, String> variables) {
        this.variables = Collections.unmodifiableMap(new TreeMap<>(variables));
    }

    /** The host whose environment is {@code variables} (the process's for the command line; a test's own map). */
    public static Host of(Map<String, String> variables) {
        return new Host(variables);
    }

    /** {@code v}'s value as set (a blank value is a value), or null when it is not set. */
    public String get(Variable v) {
        return variables.get(v.name());
    }

    /** Whether {@code v} is set, to any value. */
    public boolean has(Variable v) {
        return variables.containsKey(v.name());
    }

    /** NCCLBENCH_DEBUG is set: an internal error prints its stack trace. */
    public boolean debug() {
        return has(Variable.NCCLBENCH_DEBUG);
    }

    /**
     * libnccl.so.2, the CUDA runtime, the driver and NVML, found from this environment (NCCL_HOME, LD_LIBRARY_PATH,
     * CUDA_HOME, ...) on first ask, without loading any of them; the same answer after.
     */
    public NativeLibraries.Report libraries() {
        return once(NativeLibraries.Report.class, () -> NativeLibraries.find(this));
    }

    /**
     * What {@code compute} finds on this host, computed the first time it is asked and kept with the host: for an
     * answer that costs (a child process, a library search) and that every later question in the same command must
     * get the same. Keyed by the answer's class: one answer of each kind per host.
     */
    public synchronized <T> T once(Class<T> kind, Supplier<T> compute) {
        Object known = found.get(kind);
        if (known == null) {
            known = compute.get();
            found.put(kind, known);
        }
        return kind.cast(known);
    }

    /**
     * Every variable, as the process was given them: for recording (results/RecordedEnvironment keeps the NCCL_,
     * CUDA_ and launcher variables and redacts secrets), for a child process's environment, and for doctor's judged
     * environment. Never to read a setting from: {@link #get} does that by name.
     */
    public Map<String, String> variables() {
        return variables;
    }

    @Override
    public String toString() {
        return "Host(" + variables.size() + " variables)";
    }
}
