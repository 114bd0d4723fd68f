package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.Group;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.Variable;
import dev.ncclbench.internal.jni.JavaCppCache;
import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclConfig_t;
import org.bytedeco.cuda.nccl.ncclUniqueId;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Loading CUDA and NCCL into this process, and creating communicators. Only reached after
 * {@link NcclReadiness} said the driver and NCCL are there: the JavaCPP cuda preset cannot load without
 * libcuda.so.1.
 */
final class NcclRuntime {
    private static boolean loaded;
    /** Where the loaded libraries came from: the first host's, for as long as the process lives (dlopen keeps them). */
    private static NativeLibraries.Report libraries;
    private static int version;
    private static List<Path> logFiles = List.of();
    /** The calls newer than NCCL 2.14 that the loaded library has. */
    static volatile NcclSymbols symbols = NcclSymbols.NONE;
    static boolean hasAvg;

    private NcclRuntime() {
    }

    /** The libraries this process loaded, or null before {@link #load}. */
    static NativeLibraries.Report libraries() {
        return libraries;
    }

    /** NCCL's version code (23007) once loaded. */
    static int version() {
        return version;
    }

    static List<Path> logFiles() {
        return logFiles;
    }

    /**
     * Sets NCCL's log environment (unless the user set NCCL_DEBUG), loads libnccl.so.2 and libcudart.so.13
     * from where they were found, then the JavaCPP presets. setenv must come before NCCL's first call:
     * NCCL reads its environment once.
     */
    static synchronized void load(RunSpec spec, Host host) {
        if (loaded) {
            return;
        }
        NativeLibraries.Report libs = host.libraries();
        JavaCppCache.configure();
        try {
            NcclProbe.open(libs.nccl().path());
            version = NcclProbe.version();
            if (version < 21400) {
                throw new BackendException(ExitCode.ENVIRONMENT, "NCCL " + NcclProbe.versionString(version) + " at "
                        + libs.nccl().path() + " is too old: ncclbench needs 2.14 or newer", "pip install -U nvidia-nccl-cu13");
            }
            symbols = NcclSymbols.lookUp(NcclProbe::hasSymbol);
            hasAvg = version >= 21000;
            logFiles = setUpLog(spec, host);
            // The presets' JNI libraries link libcuda.so.1, libcudart.so.13 and libnccl.so.2 by soname: loading
            // the files readiness found first makes the dynamic loader reuse them, whatever its search path says.
            if (libs.driver().present()) {
                System.load(libs.driver().path().toString());
            }
            if (libs.cudart().present()) {
                System.load(libs.cudart().path().toString());
            }
            Loader.load(cudart.class);
            Loader.load(nccl.class);
        } catch (BackendException e) {
            throw e;
        } catch (Throwable t) {
            throw new BackendException(ExitCode.ENVIRONMENT, "cannot load CUDA and NCCL through JavaCPP: " + t,
                    "check `ncclbench env`", t);
        }
        libraries = libs;
        loaded = true;
    }

    /** NCCL_DEBUG=INFO and friends, with one log file per process in the run's output folder. */
    private static List<Path> setUpLog(RunSpec spec, Host machine) {
        // the user's NCCL_DEBUG wins: in the environment this process started with, or set in C since (NcclProbe.setenv)
        if (machine.has(Variable.NCCL_DEBUG) || NcclProbe.getenv("NCCL_DEBUG") != null) {
            String file = machine.get(Variable.NCCL_DEBUG_FILE);
            return file == null ? List.of() : List.of(Path.of(file));
        }
        Path dir = spec == null || spec.outputs().outDir() == null ? Path.of(".") : spec.outputs().outDir();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BackendException(ExitCode.ENVIRONMENT, "cannot create " + dir + " for NCCL's log: " + e.getMessage(), null);
        }
        String host = hostName();
        long pid = ProcessHandle.current().pid();
        NcclProbe.setenv("NCCL_DEBUG", "INFO", true);
        NcclProbe.setenv("NCCL_DEBUG_SUBSYS", "INIT,BOOTSTRAP,ENV,NET", true);
        NcclProbe.setenv("NCCL_DEBUG_FILE", dir.toAbsolutePath().resolve("nccl.%h.%p.log").toString(), true);
        // NCCL expands %h to the short host name and %p to the pid: the file it will write.
        return List.of(dir.toAbsolutePath().resolve("nccl." + host + "." + pid + ".log"));
    }

    /** NCCL's own %h: the kernel's host name cut at the first dot. */
    static String hostName() {
        return HostName.kernel();
    }

    /**
     * Opens one RankComm per plane; each drives -g GPUs, the process's share picked by its local rank.
     * Planes initialise concurrently (init is collective), under the -T watchdog: an init that does not
     * finish (a rank that never joins) is exit 5 naming the step, not a hang.
     */
    static List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank, Host machine) {
        load(spec, machine);
        String host = HostName.node(null, machine);
        int[] count = new int[1];
        checkCuda(cudart.cudaGetDeviceCount(count), "cudaGetDeviceCount");
        DevicePlan plan = DevicePlan.of(localRank, planes.size(), spec.devices().gpusPerThread(), count[0]);
        ExecutorService pool = Executors.newFixedThreadPool(planes.size(), r -> {
            Thread t = new Thread(r, "nccl-init");
            t.setDaemon(true);
            return t;
        });
        long limitS = BlockedCallWatchdog.limitSeconds(spec);
        long deadline = System.nanoTime() + limitS * 1_000_000_000L;
        List<Future<RankComm>> futures = new ArrayList<>();
        List<RankComm> out = new ArrayList<>();
        try {
            for (int i = 0; i < planes.size(); i++) {
                ControlPlane plane = planes.get(i);
                int firstDevice = plan.firstOf(i);
                futures.add(pool.submit((Callable<RankComm>) () -> openPlane(spec, plane, firstDevice, plan.gpusPerThread(), localRank, host)));
            }
            for (int i = 0; i < futures.size(); i++) {
                try {
                    out.add(futures.get(i).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (TimeoutException e) {
                    // the init threads stay blocked inside NCCL (daemon threads: they do not hold the JVM)
                    throw new BackendException(ExitCode.TIMEOUT, BlockedCallWatchdog.hang(planes.get(i).rank() * plan.gpusPerThread(),
                            "ncclCommInitRank", limitS), "a rank that never joins, or cannot reach rank 0's bootstrap"
                            + " address: check every rank started and NCCL_SOCKET_IFNAME");
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) {
                        throw re;
                    }
                    throw new BackendException(ExitCode.RUN_FAILED, "NCCL init failed: " + e.getCause(), null, e.getCause());
                }
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(ExitCode.RUN_FAILED, "interrupted during NCCL init", null);
        } catch (RuntimeException e) {
            // peers may be gone: abort, never destroy (ncclCommDestroy waits for them)
            out.forEach(c -> ((NcclRankComm) c).abandon());
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The group's first rank makes the unique id and shares its 128 bytes; every GPU of the group joins. Under
     * nccl-tests' split each group has its own id and communicator, as nccl-tests makes them (an id per
     * MPI_Comm_split colour and ncclCommInitRank, not ncclCommSplit).
     */
    private static RankComm openPlane(RunSpec spec, ControlPlane plane, int firstDevice, int g, int localRank, String host) {
        Group group = Group.of(spec, plane);
        byte[] id = null;
        if (plane.rank() == group.leader()) {
            ncclUniqueId uid = new ncclUniqueId();
            check(nccl.ncclGetUniqueId(uid), "ncclGetUniqueId");
            id = new byte[nccl.NCCL_UNIQUE_ID_BYTES];
            uid.internal().get(id);
        }
        byte[] mine = id == null ? new byte[0] : id;
        // one group: a broadcast from rank 0; several: every leader's id reaches its members through one gather
        byte[] shared = group.size() == plane.nranks() ? plane.broadcast("nccl-unique-id", mine, 0)
                : plane.allGather("nccl-unique-ids", mine)[group.leader()];
        ncclUniqueId uid = new ncclUniqueId();
        uid.internal().put(shared, 0, nccl.NCCL_UNIQUE_ID_BYTES);
        int nranks = group.size() * g;
        ncclComm[] comms = new ncclComm[g];
        int[] devices = new int[g];
        BytePointer configBytes = config(spec);
        ncclConfig_t config = configBytes == null ? null : new ncclConfig_t(configBytes);
        // One thread creating several ranks must group the inits, or the first blocks waiting for the others.
        check(nccl.ncclGroupStart(), "ncclGroupStart");
        for (int i = 0; i < g; i++) {
            devices[i] = firstDevice + i;
            checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice(" + devices[i] + ")");
            comms[i] = new ncclComm();
            int rank = group.rank() * g + i;
            check(config == null ? nccl.ncclCommInitRank(comms[i], nranks, uid, rank)
                    : nccl.ncclCommInitRankConfig(comms[i], nranks, uid, rank, config), "ncclCommInitRankConfig");
        }
        check(nccl.ncclGroupEnd(), "ncclGroupEnd");
        java.lang.ref.Reference.reachabilityFence(configBytes); // the grouped inits read it until ncclGroupEnd
        return new NcclRankComm(spec, plane, comms, devices, group.rank() * g, nranks, localRank, group, host);
    }

    /** The communicators' configuration ({@link NcclConfig}), or null on an NCCL without ncclCommInitRankConfig. */
    private static BytePointer config(RunSpec spec) {
        if (!symbols.configInit()) {
            return null;
        }
        byte[] image = NcclConfig.image(version, sendrecvOnly(spec));
        BytePointer p = new BytePointer(image.length);
        p.put(image);
        return p;
    }

    static boolean sendrecvOnly(RunSpec spec) {
        return spec.collectives().equals(List.of("sendrecv"));
    }

    /** An NCCL status: exit 4 (ncclTimeout: 5) with ncclGetErrorString and ncclGetLastError. */
    static void check(int rc, String what) {
        if (rc != nccl.ncclSuccess) {
            String last = symbols.lastError() ? string(nccl.ncclGetLastError(null)) : "";
            throw new BackendException(NcclStatus.exitCode(rc), what + " failed: " + string(nccl.ncclGetErrorString(rc))
                    + " (" + NcclStatus.name(rc) + ", " + rc + ")" + (last.isBlank() ? "" : ": " + last), null);
        }
    }

    /** A CUDA runtime status: exit 3 when it says the machine cannot run CUDA (driver, device), else 4. */
    static void checkCuda(int rc, String what) {
        if (rc != 0) {
            throw new BackendException(CudaStatus.exitCode(rc), what + " failed: " + string(cudart.cudaGetErrorString(rc))
                    + " (" + CudaStatus.name(rc) + ", " + rc + ")", CudaStatus.remedy(rc));
        }
    }

    static String string(BytePointer p) {
        return p == null || p.isNull() ? "" : p.getString();
    }
}
