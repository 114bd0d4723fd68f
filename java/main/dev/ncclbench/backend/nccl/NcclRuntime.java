package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.internal.jni.JavaCppCache;
import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
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

/**
 * Loading CUDA and NCCL into this process, and creating communicators. Only reached after
 * {@link NcclReadiness} said the driver and NCCL are there: the JavaCPP cuda preset cannot load without
 * libcuda.so.1.
 */
final class NcclRuntime {
    private static boolean loaded;
    private static int version;
    private static List<Path> logFiles = List.of();
    /** Symbols newer than the oldest NCCL we accept: a missing one would kill the JVM, so ask first. */
    static boolean hasMemAlloc;
    static boolean hasGetLastError;
    static boolean hasGather;
    static boolean hasAvg;

    private NcclRuntime() {
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
    static synchronized void load(RunSpec spec) {
        if (loaded) {
            return;
        }
        NativeLibraries.Report libs = NativeLibraries.find();
        JavaCppCache.configure();
        try {
            NcclProbe.open(libs.nccl().path());
            version = NcclProbe.version();
            if (version < 21400) {
                throw new BackendException(ExitCode.ENVIRONMENT, "NCCL " + NcclProbe.versionString(version) + " at "
                        + libs.nccl().path() + " is too old: ncclbench needs 2.14 or newer", "pip install -U nvidia-nccl-cu13");
            }
            hasMemAlloc = NcclProbe.hasSymbol("ncclMemAlloc");
            hasGetLastError = NcclProbe.hasSymbol("ncclGetLastError");
            hasGather = NcclProbe.hasSymbol("ncclGather") && NcclProbe.hasSymbol("ncclScatter");
            hasAvg = version >= 21000;
            logFiles = setUpLog(spec);
            // The presets' JNI libraries link libcudart.so.13 and libnccl.so.2 by soname: loading the files
            // found first makes the dynamic loader reuse them, whatever its own search path says.
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
        loaded = true;
    }

    /** NCCL_DEBUG=INFO and friends, with one log file per process in the run's output folder. */
    private static List<Path> setUpLog(RunSpec spec) {
        if (System.getenv("NCCL_DEBUG") != null || NcclProbe.getenv("NCCL_DEBUG") != null) {
            String file = System.getenv("NCCL_DEBUG_FILE");
            return file == null ? List.of() : List.of(Path.of(file));
        }
        Path dir = spec.outDir() == null ? Path.of(".") : spec.outDir();
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

    static String hostName() {
        try {
            String h = java.net.InetAddress.getLocalHost().getHostName();
            int dot = h.indexOf('.');
            return dot > 0 ? h.substring(0, dot) : h;
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** Opens one RankComm per plane; each drives -g GPUs. Planes initialise concurrently (init is collective). */
    static List<RankComm> open(RunSpec spec, List<ControlPlane> planes) {
        load(spec);
        int[] count = new int[1];
        check(cudart.cudaGetDeviceCount(count), "cudaGetDeviceCount");
        int g = spec.gpusPerThread();
        int perProcess = planes.size() * g;
        int localRank = localRank();
        int first = localRank * perProcess;
        if (first + perProcess > count[0]) {
            throw new BackendException(ExitCode.ENVIRONMENT, "this process needs GPUs " + first + ".." + (first + perProcess - 1)
                    + " (local rank " + localRank + ", " + planes.size() + " thread(s) x -g " + g + ") but " + count[0] + " are visible",
                    "lower -g/-t or the number of processes per node, or check CUDA_VISIBLE_DEVICES");
        }
        ExecutorService pool = Executors.newFixedThreadPool(planes.size(), r -> {
            Thread t = new Thread(r, "nccl-init");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RankComm>> futures = new ArrayList<>();
            for (int i = 0; i < planes.size(); i++) {
                ControlPlane plane = planes.get(i);
                int firstDevice = first + i * g;
                futures.add(pool.submit((Callable<RankComm>) () -> openPlane(spec, plane, firstDevice, g)));
            }
            List<RankComm> out = new ArrayList<>();
            for (Future<RankComm> f : futures) {
                try {
                    out.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    out.forEach(RankComm::close);
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
        } finally {
            pool.shutdownNow();
        }
    }

    /** Rank 0 of the plane makes the unique id and shares its 128 bytes; every GPU of the plane joins. */
    private static RankComm openPlane(RunSpec spec, ControlPlane plane, int firstDevice, int g) {
        byte[] id = null;
        if (plane.rank() == 0) {
            ncclUniqueId uid = new ncclUniqueId();
            check(nccl.ncclGetUniqueId(uid), "ncclGetUniqueId");
            id = new byte[nccl.NCCL_UNIQUE_ID_BYTES];
            uid.internal().get(id);
        }
        byte[] shared = plane.broadcast("nccl-unique-id", id == null ? new byte[0] : id, 0);
        ncclUniqueId uid = new ncclUniqueId();
        uid.internal().put(shared, 0, nccl.NCCL_UNIQUE_ID_BYTES);
        int nranks = plane.nranks() * g;
        ncclComm[] comms = new ncclComm[g];
        int[] devices = new int[g];
        // One thread creating several ranks must group the inits, or the first blocks waiting for the others.
        check(nccl.ncclGroupStart(), "ncclGroupStart");
        for (int i = 0; i < g; i++) {
            devices[i] = firstDevice + i;
            checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice(" + devices[i] + ")");
            comms[i] = new ncclComm();
            check(nccl.ncclCommInitRank(comms[i], nranks, uid, plane.rank() * g + i), "ncclCommInitRank");
        }
        check(nccl.ncclGroupEnd(), "ncclGroupEnd");
        return new NcclRankComm(spec, plane, comms, devices, plane.rank() * g, nranks);
    }

    /** The local rank under a launcher (torchrun, Open MPI, Slurm, PMI), 0 otherwise. */
    static int localRank() {
        for (String v : List.of("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID", "PMI_LOCAL_RANK")) {
            String s = System.getenv(v);
            if (s != null) {
                try {
                    return Integer.parseInt(s.trim());
                } catch (NumberFormatException e) {
                    throw new BackendException(ExitCode.USAGE, v + "=" + s + " is not a number", null);
                }
            }
        }
        return 0;
    }

    /** An NCCL status: exit 4 with ncclGetErrorString and ncclGetLastError. */
    static void check(int rc, String what) {
        if (rc != nccl.ncclSuccess) {
            String last = hasGetLastError ? string(nccl.ncclGetLastError(null)) : "";
            throw new BackendException(ExitCode.RUN_FAILED, what + " failed: " + string(nccl.ncclGetErrorString(rc))
                    + " (" + rc + ")" + (last.isBlank() ? "" : ": " + last), null);
        }
    }

    static void checkCuda(int rc, String what) {
        if (rc != 0) {
            throw new BackendException(ExitCode.RUN_FAILED, what + " failed: " + string(cudart.cudaGetErrorString(rc)) + " (" + rc + ")", null);
        }
    }

    static String string(BytePointer p) {
        return p == null || p.isNull() ? "" : p.getString();
    }
}
