package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.Capability;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.spec.RunSpec;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.global.nvml;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nvml.nvmlDevice_st;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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
    private final RankInfo info;
    private boolean closed;

    NcclRankComm(RunSpec spec, ControlPlane plane, ncclComm[] comms, int[] devices, int firstRank, int nranks) {
        this.spec = spec;
        this.plane = plane;
        this.comms = comms;
        this.devices = devices;
        this.firstRank = firstRank;
        this.nranks = nranks;
        this.streams = new CUstream_st[devices.length];
        for (int i = 0; i < devices.length; i++) {
            NcclRuntime.checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice");
            streams[i] = new CUstream_st();
            NcclRuntime.checkCuda(cudart.cudaStreamCreate(streams[i]), "cudaStreamCreate");
        }
        this.info = new RankInfo(firstRank, NcclRuntime.localRank(), NcclRuntime.hostName(), ProcessHandle.current().pid(),
                describeDevices());
    }

    /** "cuda:0 [0000:18:00.0] NVIDIA H200" per GPU, the name from NVML when it loads. */
    private String describeDevices() {
        StringBuilder sb = new StringBuilder();
        for (int d : devices) {
            byte[] bus = new byte[32];
            String busId = cudart.cudaDeviceGetPCIBusId(bus, bus.length, d) == 0 ? cString(bus) : "?";
            sb.append(sb.length() == 0 ? "" : ", ").append("cuda:").append(d).append(" [").append(busId).append("] ").append(gpuName(busId));
        }
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
        return EnumSet.of(Capability.ASYNC_LAUNCH, Capability.CUDA_GRAPH, Capability.NCCL_LOG, Capability.DEVICE_TIMING);
    }

    @Override
    public Operation prepare(Collective collective, Counts counts, DataType type, ReduceOp op, int root, boolean inPlace) {
        if (op == ReduceOp.AVG && !NcclRuntime.hasAvg) {
            throw new BackendException(ExitCode.USAGE, "-o avg needs NCCL 2.10 or newer", null);
        }
        return new NcclOperation(this, collective, counts, type, op, root, inPlace);
    }

    @Override
    public List<Path> logFiles() {
        return NcclRuntime.logFiles();
    }

    /** -T: the watchdog fires: abort every communicator (unblocks the GPU), then the hang exit. */
    void abort(String why) {
        for (ncclComm c : comms) {
            nccl.ncclCommAbort(c);
        }
        closed = true;
        throw new BackendException(ExitCode.TIMEOUT, "hang: " + why, "check the NCCL log of every rank ("
                + logFiles() + ") for the rank that stopped; a slow run finishes, a hang does not");
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < comms.length; i++) {
            cudart.cudaSetDevice(devices[i]);
            cudart.cudaStreamSynchronize(streams[i]);
            nccl.ncclCommDestroy(comms[i]);
            cudart.cudaStreamDestroy(streams[i]);
        }
    }
}
