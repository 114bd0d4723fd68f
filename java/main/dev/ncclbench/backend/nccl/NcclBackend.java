package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.MemoryBudget;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.ProbeResult;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The NCCL backend: JavaCPP to libnccl, libcudart and NVML (org.bytedeco:cuda). Registering it loads
 * nothing; {@link #readiness} loads nothing either (the libraries are found on disk and NCCL is asked in
 * a child process); only {@link #open} loads CUDA, after the checks say it can.
 */
public final class NcclBackend implements Backend {
    @Override
    public String name() {
        return "nccl";
    }

    @Override
    public int autoOrder() {
        return 0;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.ASYNC_LAUNCH, Capability.CUDA_GRAPH, Capability.NCCL_LOG, Capability.DEVICE_MEMORY,
                Capability.EVENT_TIMING, Capability.BUFFER_REGISTRATION, Capability.PLACES_OWN_THREADS,
                Capability.COMPILED_DATA_PATH, Capability.GPUS_PER_THREAD, Capability.THREADS);
    }

    /** NCCL reduces every type nccl-tests names with every op it names; fp8 is refused (see {@link #validate}). */
    @Override
    public boolean supports(DataType type, ReduceOp op) {
        return KernelSignature.suffix(type).isPresent();
    }

    /**
     * Each GPU's room for the sweep's buffers, as nccl-tests caps maxBytes ({@link DeviceMemory}); null where NVML
     * does not say (then nothing is checked before the sweep, and ncclMemAlloc says it).
     */
    @Override
    public MemoryBudget memory(RunSpec spec) {
        long total = smallestGpu();
        return total <= 0 ? null : DeviceMemory.budget(total, spec.data().checkIters() > 0);
    }

    private static volatile long smallestGpu;

    private static long smallestGpu() {
        if (smallestGpu == 0) {
            smallestGpu = DeviceMemory.smallestTotal();
        }
        return smallestGpu;
    }

    /** The header's line on how the communicators are configured (the probe said which NCCL loads). */
    @Override
    public List<String> notes(RunSpec spec, Host host) {
        ProbeResult probe = NcclReadiness.of(host).probe();
        int version = probe == null ? 0 : probe.version();
        return version <= 0 ? List.of() : List.of(NcclConfig.describe(version, NcclRuntime.sendrecvOnly(spec)));
    }

    /**
     * Whether NCCL can run here, for the sweep's {@code --backend auto} decision and for {@code --backend nccl}.
     * Found once per host (it runs the NCCL probe in a child JVM, about a second). Never loads CUDA.
     */
    @Override
    public Readiness readiness(RunSpec spec, Host host) {
        return NcclReadiness.of(host).readiness();
    }

    /** Throws the exit-3 {@link BackendException} when NCCL cannot run here. */
    private void requireReady(RunSpec spec, Host host) {
        Readiness r = readiness(spec, host);
        if (!r.ready()) {
            throw new BackendException(ExitCode.ENVIRONMENT, r.reason(), r.remedy());
        }
    }

    /**
     * Refuses what this backend cannot run, before anything is allocated or loaded (exit 2 with one line).
     * fp8 is refused rather than mapped: the data pattern's sums are not exact in 8-bit floats, so #wrong
     * would mean nothing.
     */
    /**
     * -u (unalign: NcclOperation), -R 1|2 (NcclRegistration), -p 1 (every thread initialises its own communicators,
     * NcclRuntime#open, which is nccl-tests' parallel init). Not yet: -M, -y, -x, -D, -V.
     */
    @Override
    public boolean honours(String letter) {
        return Set.of("-u", "-R", "-p").contains(letter);
    }

    @Override
    public void refuse(RunSpec asked) {
        validate(asked);
    }

    public static void validate(RunSpec spec) {
        if (KernelSignature.suffix(spec.data().type()).isEmpty()) {
            throw new BackendException(ExitCode.USAGE, refusal(spec.data().type()), null);
        }
    }

    static String refusal(DataType t) {
        return "-d " + t.label() + " is not supported by the nccl backend (its check data is not exact in 8-bit floats);"
                + " use -d half or -d bfloat16";
    }

    @Override
    public List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank, Host host) {
        requireReady(spec, host);
        validate(spec);
        return NcclRuntime.open(spec, planes, localRank, host);
    }
}
