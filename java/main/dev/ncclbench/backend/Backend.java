package dev.ncclbench.backend;

import dev.ncclbench.spec.Capability;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.env.Host;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;

import java.util.List;
import java.util.Set;

/**
 * A way to move bytes between ranks: a plug-in of the sweep, found through {@link java.util.ServiceLoader}
 * (META-INF/services/dev.ncclbench.backend.Backend; see {@link Backends}). Creating one loads no native code;
 * {@link #readiness} is cheap; {@link #open} turns any failure into one {@link BackendException} with a cause
 * and a remedy. The sweep asks {@link #capabilities} and {@link #supports}, never the name.
 */
public interface Backend {

    /** "nccl" or "socket": what --backend names and the result records. */
    String name();

    /** --backend auto tries the ready backends in this order, lowest first. */
    int autoOrder();

    /** What this backend does; the flags that need a capability it lacks are refused. */
    Set<Capability> capabilities();

    /** Whether it can reduce {@code type} with {@code op}; collectives that do not reduce move every type. */
    boolean supports(DataType type, ReduceOp op);

    /** The largest buffer (-e) it sweeps per rank. */
    default long maxBytes() {
        return Long.MAX_VALUE;
    }

    /** Where its buffers live and how much room there is; null when the backend checks that itself. */
    default MemoryBudget memory(RunSpec spec) {
        return null;
    }

    /** Lines for the result's header: how this backend will run the spec, so that a number can be reproduced. */
    default List<String> notes(RunSpec spec, Host host) {
        return List.of();
    }

    /**
     * Whether this backend honours nccl-tests' GPU flag {@code letter} ("-u", "-R", ...): one it does not is refused
     * by name ({@link NcclTestsChecks#refuse}).
     */
    default boolean honours(String letter) {
        return false;
    }

    /**
     * Refuses, with a usage {@link BackendException}, what this backend can never do whatever the machine (e.g. a type
     * its check data cannot be exact in): asked before readiness, so a bad request is exit 2 before exit 3.
     */
    default void refuse(RunSpec asked) {
    }

    /**
     * Whether this backend can run here, and if not, why and what to change. Must not crash the JVM.
     *
     * @param host the machine and its environment, as the command line built it (NCCL_SOCKET_FAMILY, NCCL_COMM_ID,
     *             the libraries found); an answer that costs is kept with it ({@link Host#once})
     */
    Readiness readiness(RunSpec spec, Host host);

    /**
     * Opens the ranks this process hosts, one per control plane (threads of this process or one rank per
     * process). Collective: every rank of the job calls it.
     *
     * @param localRank this process's index among the processes of its node, which decides the GPUs a GPU
     *                  backend takes
     * @param host      the host {@link #readiness} was asked about
     */
    List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank, Host host);
}
