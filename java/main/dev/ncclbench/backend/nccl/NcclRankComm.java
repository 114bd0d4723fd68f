package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Group;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.env.HostVersions;
import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.spec.RunSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.global.nvml;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nvml.nvmlDevice_st;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * One thread's ranks: -g GPUs, one communicator and one stream each, driven together (every launch is
 * one group call over all of them, as nccl-tests does).
 */
final class NcclRankComm implements RankComm {
    final RunSpec spec;
    final ControlPlane plane;
    final ncclComm[] comms;
    final int[] devices;
    final CUstream_st[] streams;
    final int firstRank;
    final int nranks;
    final BlockedCallWatchdog watchdog;
    /** The loaded kernels per GPU, or null where they did not load (then data goes through the host). */
    final Kernels[] kernels;
    private final String[] dataPath;
    private final RankInfo info;
    private final CommLifecycle lifecycle = new CommLifecycle();
    private BytePointer[] sendBase;
    private BytePointer[] recvBase;
    private long bufferBytes;
    private NcclRegistration registration = NcclRegistration.NONE;

    /** cudaStreamNonBlocking, as nccl-tests creates its streams. */
    static final int STREAM_FLAGS = cudart.cudaStreamNonBlocking;

    /**
     * @param firstRank its first GPU's rank in its communicator (the group's, under nccl-tests' split)
     * @param group     the communicator: the header lists the rank in world numbering with the group's colour
     * @param host      this node's name, as the header and the result name it
     */
    NcclRankComm(RunSpec spec, ControlPlane plane, ncclComm[] comms, int[] devices, int firstRank, int nranks, int localRank,
                 Group group, String host) {
        this.spec = spec;
        this.plane = plane;
        this.comms = comms;
        this.devices = devices;
        this.firstRank = firstRank;
        this.nranks = nranks;
        this.streams = new CUstream_st[devices.length];
        this.kernels = new Kernels[devices.length];
        this.dataPath = new String[devices.length];
        for (int i = 0; i < devices.length; i++) {
            NcclRuntime.checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice");
            streams[i] = new CUstream_st();
            // as nccl-tests (common.cu): a blocking stream would wait on the legacy default stream, which the host
            // fill/check path uses, and another thread's legacy-stream work would invalidate a -G capture
            NcclRuntime.checkCuda(cudart.cudaStreamCreateWithFlags(streams[i], STREAM_FLAGS), "cudaStreamCreateWithFlags");
            Object k = Kernels.on(devices[i]);
            kernels[i] = k instanceof Kernels ? (Kernels) k : null;
            dataPath[i] = kernels[i] != null ? "data filled and checked on the GPU (kernels: " + kernels[i].source() + ")"
                    : "data filled and checked on the host (kernels not loaded: " + k + ")";
        }
        this.watchdog = new BlockedCallWatchdog(BlockedCallWatchdog.limitSeconds(spec), System.err);
        this.info = new RankInfo(plane.rank() * devices.length, localRank, host, ProcessHandle.current().pid(),
                describeDevices(), group.color());
    }

    /**
     * Device i's send and receive buffers, allocated once at the sweep's largest size as nccl-tests does:
     * every size uses them, shifted per call (BufferShift).
     */
    BytePointer sendBase(int i, long bytes) {
        ensureBuffers(bytes);
        return sendBase[i];
    }

    BytePointer recvBase(int i, long bytes) {
        ensureBuffers(bytes);
        return recvBase[i];
    }

    long bufferBytes() {
        return bufferBytes;
    }

    private void ensureBuffers(long atLeast) {
        if (sendBase != null && bufferBytes >= atLeast) {
            return;
        }
        freeBuffers();
        long bytes = Math.max(atLeast, Math.max(spec.range().maxBytes(), 1));
        // nccl-tests' AllocateBuffs: -u pads by 8 bytes an element (the widest type) for the misaligned start
        long allocated = bytes + 8L * spec.ncclTests().flags().unalign();
        sendBase = new BytePointer[devices.length];
        recvBase = new BytePointer[devices.length];
        for (int i = 0; i < devices.length; i++) {
            NcclRuntime.checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice");
            sendBase[i] = alloc(allocated);
            recvBase[i] = alloc(allocated);
        }
        bufferBytes = bytes;
        // -R: the whole allocation, as nccl-tests registers maxBytes of each buffer once
        registration = NcclRegistration.register(spec.ncclTests().flags().localRegister(), NcclRuntime.symbols,
                NcclProbe.versionString(NcclRuntime.version()), comms, sendBase, recvBase, allocated);
    }

    /** ncclMemAlloc where the NCCL has it (registration-friendly memory, needed for NVLS), else cudaMalloc. */
    private static BytePointer alloc(long bytes) {
        Pointer p = new Pointer();
        if (NcclRuntime.symbols.memAlloc()) {
            NcclRuntime.check(nccl.ncclMemAlloc(p, bytes), "ncclMemAlloc(" + bytes + ")");
        } else {
            NcclRuntime.checkCuda(cudart.cudaMalloc(p, bytes), "cudaMalloc(" + bytes + ")");
        }
        return new BytePointer(p);
    }

    private void freeBuffers() {
        if (sendBase == null) {
            return;
        }
        registration.release();
        registration = NcclRegistration.NONE;
        for (int i = 0; i < devices.length; i++) {
            cudart.cudaSetDevice(devices[i]);
            for (BytePointer p : new BytePointer[] {sendBase[i], recvBase[i]}) {
                if (NcclRuntime.symbols.memAlloc()) {
                    nccl.ncclMemFree(p);
                } else {
                    cudart.cudaFree(p);
                }
            }
        }
        sendBase = null;
        recvBase = null;
        bufferBytes = 0;
    }

    /** "cuda:0 [0000:18:00.0] NVIDIA H200" per GPU, the name from NVML when it loads. */
    private String describeDevices() {
        StringBuilder sb = new StringBuilder();
        for (int d : devices) {
            byte[] bus = new byte[32];
            String busId = cudart.cudaDeviceGetPCIBusId(bus, bus.length, d) == 0 ? cString(bus) : "?";
            sb.append(sb.length() == 0 ? "" : ", ").append("cuda:").append(d).append(" [").append(busId).append("] ").append(gpuName(busId));
        }
        // one line for all GPUs when they agree (the usual case), else one per GPU
        java.util.Set<String> paths = new java.util.LinkedHashSet<>(List.of(dataPath));
        sb.append("; ").append(String.join("; ", paths));
        return sb.toString();
    }

    private static String gpuName(String busId) {
        try {
            org.bytedeco.javacpp.Loader.load(nvml.class);
            if (nvml.nvmlInit_v2() != 0) {
                return "GPU";
            }
            nvmlDevice_st dev = new nvmlDevice_st();
            if (nvml.nvmlDeviceGetHandleByPciBusId_v2(new org.bytedeco.javacpp.BytePointer(busId), dev) != 0) {
                return "GPU";
            }
            byte[] name = new byte[96];
            return nvml.nvmlDeviceGetName(dev, name, name.length) == 0 ? cString(name) : "GPU";
        } catch (Throwable t) {
            return "GPU";
        }
    }

    static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }

    @Override
    public int rank() {
        return firstRank;
    }

    @Override
    public int nranks() {
        return nranks;
    }

    @Override
    public RankInfo info() {
        return info;
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.ASYNC_LAUNCH, Capability.CUDA_GRAPH, Capability.NCCL_LOG, Capability.DEVICE_MEMORY,
                Capability.EVENT_TIMING, Capability.BUFFER_REGISTRATION, Capability.PLACES_OWN_THREADS,
                Capability.COMPILED_DATA_PATH);
    }

    @Override
    public Operation prepare(Call call) {
        if (call.op() == ReduceOp.AVG && !NcclRuntime.hasAvg) {
            throw new BackendException(ExitCode.USAGE, "-o avg needs NCCL 2.10 or newer", null);
        }
        return new NcclOperation(this, call);
    }

    @Override
    public List<Path> logFiles() {
        return NcclRuntime.logFiles();
    }

    /**
     * NCCL's version as the loaded library says it, where it was found, the CUDA runtime's and the driver API's
     * versions, and the first GPU's memory clock and bus width (its copy limit: clock x 2 x width / 8 / 2).
     * Each piece that cannot be read is left out, never guessed.
     */
    @Override
    public java.util.Map<String, String> versions() {
        java.util.Map<String, String> v = new java.util.TreeMap<>(HostVersions.libraries(NcclRuntime.libraries(),
                NcclRuntime.version() > 0 ? NcclProbe.versionString(NcclRuntime.version()) : null));
        try {
            int[] x = new int[1];
            if (cudart.cudaDriverGetVersion(x) == 0 && x[0] > 0) {
                v.put(HostVersions.CUDA_DRIVER_API, cudaVersion(x[0]));
            }
            if (cudart.cudaRuntimeGetVersion(x) == 0 && x[0] > 0) {
                v.put(HostVersions.CUDA_RUNTIME_API, cudaVersion(x[0]));
            }
            byte[] bus = new byte[32];
            if (devices.length > 0 && cudart.cudaDeviceGetPCIBusId(bus, bus.length, devices[0]) == 0) {
                gpuMemory(cString(bus), v);
            }
        } catch (Throwable t) {
            // a version is a record, not a requirement: the run goes on without it
        }
        return v;
    }

    /** 13000 -> "13.0", as cudaDriverGetVersion's 1000 x major + 10 x minor. */
    static String cudaVersion(int code) {
        return code / 1000 + "." + (code % 1000) / 10;
    }

    private static void gpuMemory(String busId, java.util.Map<String, String> v) {
        org.bytedeco.javacpp.Loader.load(nvml.class);
        if (nvml.nvmlInit_v2() != 0) {
            return;
        }
        nvmlDevice_st dev = new nvmlDevice_st();
        if (nvml.nvmlDeviceGetHandleByPciBusId_v2(new org.bytedeco.javacpp.BytePointer(busId), dev) != 0) {
            return;
        }
        int[] clock = new int[1];
        int[] width = new int[1];
        if (nvml.nvmlDeviceGetMaxClockInfo(dev, nvml.NVML_CLOCK_MEM, clock) == 0 && clock[0] > 0
                && nvml.nvmlDeviceGetMemoryBusWidth(dev, width) == 0 && width[0] > 0) {
            v.put(HostVersions.GPU_MEMORY_CLOCK_MHZ, String.valueOf(clock[0]));
            v.put(HostVersions.GPU_MEMORY_BUS_WIDTH_BITS, String.valueOf(width[0]));
        }
    }

    /**
     * Aborts every communicator of this thread (unblocks the GPU and the peers' waits) and throws. Called
     * from this thread's own drain, on an async error or when -T passes without progress.
     */
    void abort(ExitCode code, String why, String remedy) {
        abandon();
        throw new BackendException(code, why, remedy);
    }

    /** -T without progress while draining: abort, then the hang exit. */
    void abort(String why) {
        abort(ExitCode.TIMEOUT, "hang: " + why, "check the NCCL log of every rank (" + logFiles()
                + ") for the rank that stopped; a slow run finishes, a hang does not");
    }

    /**
     * ncclCommAbort on every communicator, once; never waits for the streams or the peers. Any thread may call it
     * (another rank's thread on the first failure, the signal handler): NCCL made abort for that. The owner sees
     * {@link #aborted} at its next call and stops.
     */
    void abandon() {
        if (lifecycle.abort()) {
            for (ncclComm c : comms) {
                nccl.ncclCommAbort(c);
            }
            watchdog.close();
        }
    }

    @Override
    public void abort() {
        abandon();
    }

    boolean aborted() {
        return lifecycle.aborted();
    }

    /** The owner's next NCCL call after another thread aborted: stop here, the communicators are gone. */
    void refuseIfAborted(String step) {
        if (lifecycle.aborted()) {
            throw new BackendException(ExitCode.RUN_FAILED, "rank " + firstRank + " stopped before " + step
                    + ": its communicators were aborted (another rank failed, or a signal came)", null);
        }
    }

    /**
     * Only by the owner, or by the main thread after the rank's thread ended: destroys the communicators, then
     * frees their buffers (as nccl-tests: NCCL may still have them registered), then the streams. After an abort
     * there is nothing to destroy, and the buffers are left to the process's end.
     */
    @Override
    public void close() {
        if (!lifecycle.close()) {
            return;
        }
        watchdog.close();
        // nothing is in flight here: every operation drained (under the watchdog) or aborted before close
        for (int i = 0; i < comms.length; i++) {
            cudart.cudaSetDevice(devices[i]);
            nccl.ncclCommDestroy(comms[i]);
        }
        freeBuffers();
        for (int i = 0; i < comms.length; i++) {
            cudart.cudaSetDevice(devices[i]);
            cudart.cudaStreamDestroy(streams[i]);
        }
    }
}
