package dev.ncclbench.env;

import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.netif.InterfaceAdvice;

import java.util.List;

/**
 * The rules of `ncclbench env`: what the nccl backend lacks on this machine. Each rule's words live in
 * {@link Missing}, which the nccl backend's readiness shares; this book gives them ids that `rules` lists and
 * --ignore takes.
 */
public final class EnvRules {
    /**
     * What env judges: the libraries found, the probe's answer (null when NCCL was not found, so not probed), and
     * NCCL_SOCKET_IFNAME as this process sees it (for the bootstrap remedy).
     */
    public record Machine(NativeLibraries.Report libs, ProbeResult probe, String socketIfname) {
    }

    private static final RuleBook<Machine> BOOK = new RuleBook<>("env", List.of(
            new NoNccl(), new NcclUnloadable(), new NoCudart(), new NoDriver(), new NoGpu(), new Bootstrap()));

    private EnvRules() {
    }

    public static RuleBook<Machine> book() {
        return BOOK;
    }

    private static final class NoNccl extends BaseRule<Machine> {
        NoNccl() {
            super(Missing.NO_NCCL, Severity.ERROR, "NCCL (libnccl.so.2) is found in none of the places NCCL is looked for");
        }

        @Override
        public List<Finding> check(Machine m) {
            return m.libs().nccl().present() ? List.of() : List.of(Missing.noNccl());
        }
    }

    private static final class NcclUnloadable extends BaseRule<Machine> {
        NcclUnloadable() {
            super(Missing.NCCL_UNLOADABLE, Severity.ERROR, "libnccl.so.2 is found but dlopen refuses it");
        }

        @Override
        public List<Finding> check(Machine m) {
            ProbeResult p = m.probe();
            return m.libs().nccl().present() && p != null && p.problem() == null && !p.loaded()
                    ? List.of(Missing.unloadable(m.libs().nccl().path().toString(), p.dlError())) : List.of();
        }
    }

    private static final class NoCudart extends BaseRule<Machine> {
        NoCudart() {
            super(Missing.NO_CUDART, Severity.ERROR, "the CUDA 13 runtime (libcudart.so.13) is not found");
        }

        @Override
        public List<Finding> check(Machine m) {
            return m.libs().cudart().present() ? List.of() : List.of(Missing.noCudart());
        }
    }

    private static final class NoDriver extends BaseRule<Machine> {
        NoDriver() {
            super(Missing.NO_DRIVER, Severity.ERROR, "the NVIDIA driver (libcuda.so.1) is not found");
        }

        @Override
        public List<Finding> check(Machine m) {
            return m.libs().driver().present() ? List.of() : List.of(Missing.noDriver());
        }
    }

    private static final class NoGpu extends BaseRule<Machine> {
        NoGpu() {
            super(Missing.NO_GPU, Severity.WARNING, "no GPU is listed in /proc/driver/nvidia/gpus");
        }

        @Override
        public List<Finding> check(Machine m) {
            return m.libs().gpus().isEmpty() ? List.of(Missing.noGpu()) : List.of();
        }
    }

    private static final class Bootstrap extends BaseRule<Machine> {
        Bootstrap() {
            super(Missing.BOOTSTRAP, Severity.ERROR,
                    "ncclGetUniqueId fails in a child process: NCCL would die at init (no usable bootstrap interface)");
        }

        @Override
        public List<Finding> check(Machine m) {
            return m.probe() != null && m.probe().bootstrapFailed()
                    ? List.of(Missing.bootstrap(m.probe(), InterfaceAdvice.bootstrapRemedy(m.socketIfname())))
                    : List.of();
        }
    }
}
