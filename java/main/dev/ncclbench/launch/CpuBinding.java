package dev.ncclbench.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Binds each local rank's thread to a CPU of its own, as {@code mpirun --bind-to core} does (Open MPI's default
 * for up to 2 ranks). Without it the scheduler sometimes put both ranks of a 2-core machine on one CPU, and small
 * sizes took nearly twice as long at random (docs/benchmarks.md#cpubinding). Only the rank's
 * own thread is bound: the JVM's compiler and GC threads stay free to run anywhere.
 *
 * <p>The CPUs are those this process may use (/proc/self/status), so a launcher's or a cgroup's binding is kept;
 * the rank on a node picks by its local index. Ranks that would share a CPU are not bound at all (Open MPI does not
 * bind an oversubscribed node either). With the binding goes the JIT compiler's priority ({@link #lowerCompilerPriority}). Linux only: the thread is found at /proc/thread-self and bound with
 * util-linux's taskset, since Java has no call for it.
 */
public final class CpuBinding {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    /** The CPU of each local rank of this process, by its index here; empty when not bound. */
    private final List<Integer> cpus;
    private final String note;

    private CpuBinding(List<Integer> cpus, String note) {
        this.cpus = cpus;
        this.note = note;
    }

    /** No binding, with nothing to say (the user asked for none, or the backend's own library places threads). */
    public static CpuBinding none() {
        return new CpuBinding(List.of(), null);
    }

    /**
     * @param launch    who this process is: its local index and how many processes share the node
     * @param ranksHere rank threads in this process
     * @param rendezvous --rendezvous HOST:PORT, or null: on loopback every rank is on this node
     */
    public static CpuBinding plan(LaunchInfo launch, int ranksHere, String rendezvous) {
        List<Integer> allowed;
        try {
            allowed = allowedCpus(Files.readAllLines(STATUS));
        } catch (IOException | RuntimeException e) {
            return new CpuBinding(List.of(), "rank threads not bound to CPUs: this system has no /proc/self/status");
        }
        String host = rendezvous == null ? null : rendezvous.substring(0, Math.max(0, rendezvous.lastIndexOf(':')));
        boolean allHere = launch.singleNode() || LaunchInfo.loopback(host);
        int processes = launch.localSize() > 0 ? launch.localSize() : allHere ? launch.size() : -1;
        int local = launch.localSize() > 0 ? launch.localRank() : launch.rank();
        if (processes < 1 || allowed.isEmpty()) {
            return new CpuBinding(List.of(), "rank threads not bound to CPUs: the launcher does not say how many ranks"
                    + " share this node (--cpu-bind none silences this)");
        }
        int ranks = processes * ranksHere;
        if (ranks > allowed.size() || (local + 1) * ranksHere > allowed.size() || local < 0) {
            return new CpuBinding(List.of(), "rank threads not bound to CPUs: " + ranks + " ranks share the "
                    + allowed.size() + " CPU" + (allowed.size() == 1 ? "" : "s") + " this process may use");
        }
        List<Integer> mine = new ArrayList<>();
        for (int i = 0; i < ranksHere; i++) {
            mine.add(allowed.get(local * ranksHere + i));
        }
        return new CpuBinding(mine, "each rank's thread is bound to a CPU of its own, by its index on the node"
                + " (as mpirun --bind-to core; --cpu-bind none leaves them to the scheduler): this process's rank"
                + (mine.size() == 1 ? " on CPU " + mine.get(0) : "s on CPUs " + mine));
    }

    /** For the result's header, or null. */
    public String note() {
        return note;
    }

    /**
     * Binds the calling thread, local rank {@code index} of this process. Returns null, or why it could not (the
     * run goes on unbound).
     */
    public String bindCurrentThread(int index) {
        if (index >= cpus.size()) {
            return null;
        }
        int cpu = cpus.get(index);
        String tid;
        try {
            tid = Files.readSymbolicLink(THREAD_SELF).getFileName().toString();
        } catch (IOException e) {
            return "could not bind its thread to CPU " + cpu + " (taskset from util-linux not found?): " + e.getMessage();
        }
        String why = run(List.of("taskset", "-p", "-c", Integer.toString(cpu), tid));
        return why == null ? null : "could not bind its thread to CPU " + cpu + why;
    }

    /**
     * Sets the JIT compiler's threads to nice 19 (raising a thread's own nice needs no privilege), so that a rank
     * thread bound to the CPU where a compile runs takes it back at once instead of after the compile's scheduler
     * slice: on a machine with as many CPUs as ranks the compiler has no CPU of its own. Compiler threads started
     * later are started by a compiler thread and inherit its nice value. It cut the slow samples of small sizes by
     * three quarters (docs/benchmarks.md#cpubinding).
     *
     * @param compilerThreads the compiler threads' ids (sweep.JitSettle lists them); empty where they are not known
     * @return a note for the header, or why it could not (the run goes on)
     */
    public static String lowerCompilerPriority(List<String> compilerThreads) {
        if (compilerThreads.isEmpty()) {
            return "the JIT compiler's threads run at their usual priority: this system does not list them";
        }
        List<String> cmd = new ArrayList<>(List.of("renice", "-n", "19", "-p"));
        cmd.addAll(compilerThreads);
        String why = run(cmd);
        return why == null ? "the JIT compiler's threads run at nice 19, below the ranks' (--cpu-bind none leaves them be)"
                : "the JIT compiler's threads run at their usual priority" + why;
    }

    /**
     * Runs one of util-linux's tools ({@code cmd.get(0)}) and waits for it. Returns null when it exited 0, else why
     * not, worded to follow a sentence: ": taskset exited with 1", " (renice from util-linux not found?): ...".
     */
    private static String run(List<String> cmd) {
        String tool = cmd.get(0);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return ": " + tool + " did not answer within 10 s";
            }
            return p.exitValue() == 0 ? null : ": " + tool + " exited with " + p.exitValue();
        } catch (IOException e) {
            return " (" + tool + " from util-linux not found?): " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ": interrupted";
        }
    }

    /** The CPUs of a /proc/PID/status "Cpus_allowed_list:" line ("0-3,8,10-11"), in order; empty if none. */
    static List<Integer> allowedCpus(List<String> status) {
        List<Integer> out = new ArrayList<>();
        for (String line : status) {
            if (!line.startsWith("Cpus_allowed_list:")) {
                continue;
            }
            for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                int dash = part.indexOf('-');
                int lo = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
                int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1).trim());
                for (int c = lo; c <= hi; c++) {
                    out.add(c);
                }
            }
        }
        return out;
    }
}
