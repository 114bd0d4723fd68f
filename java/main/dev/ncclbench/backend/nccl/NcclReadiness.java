package dev.ncclbench.backend.nccl;

import dev.ncclbench.backend.Readiness;
import dev.ncclbench.env.Missing;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.netif.InterfaceAdvice;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries.Found;
import dev.ncclbench.env.NativeLibraries.Report;
import dev.ncclbench.env.ProbeResult;
import dev.ncclbench.env.ProbeRunner;
import dev.ncclbench.env.Variable;

/**
 * Whether the nccl backend can run here, decided without loading CUDA or the JavaCPP cuda preset
 * (which needs libcuda.so.1 and cannot load without the driver): find the libraries, then, where there is a
 * driver, ask the real NCCL in a child process whether it can bootstrap.
 * <p>
 * The reason names the first thing missing in the order a person fixes them: the GPU's driver, then NCCL, then
 * its CUDA runtime, then the network NCCL bootstraps on. A machine without a driver hears "no GPU" even when
 * libnccl.so.2 is there (scripts/fetch-nccl.sh puts one in deps/): installing NCCL would not help it.
 */
final class NcclReadiness {
    private NcclReadiness() {
    }

    /**
     * The verdict, and the probe behind it (NCCL's version for the header's note); null where no probe ran.
     */
    record Verdict(Readiness readiness, ProbeResult probe) {
    }

    /**
     * The verdict for {@code host}, found once per host and kept with it: the sweep asks it to choose a backend and
     * again to open one, and the probe child costs about a second. Another host (another command in the same JVM,
     * another test) gets its own.
     */
    static Verdict of(Host host) {
        return host.once(Verdict.class, () -> assess(host.libraries(), true, host));
    }

    /** @param host the environment the probe child gets and whose NCCL_SOCKET_IFNAME the remedy names */
    static Verdict assess(Report libs, boolean runProbe, Host host) {
        Found nccl = libs.nccl();
        if (!libs.driver().present()) {
            // no probe: without a driver nothing NCCL says changes the answer, and the child JVM costs seconds
            return new Verdict(Readiness.notReady(found("NCCL", libs), noGpu(nccl), remedy(Missing.noDriver())), null);
        }
        if (!nccl.present()) {
            return new Verdict(Readiness.notReady("nothing",
                    "no NCCL: libnccl.so.2 not found (searched NCCL_HOME, LD_LIBRARY_PATH, ldconfig, CUDA_HOME, /usr/local/cuda,"
                            + " system folders, python site-packages nvidia/nccl/lib)",
                    remedy(Missing.noNccl())), null);
        }
        String ncclText = "NCCL";
        ProbeResult probe = runProbe ? ProbeRunner.probe(nccl.path(), host) : null;
        if (probe != null && probe.problem() == null) {
            if (!probe.loaded()) {
                return new Verdict(Readiness.notReady(nccl.describe(), "libnccl.so.2 at " + nccl.path() + " cannot be loaded: "
                        + probe.dlError(), remedy(Missing.unloadable(nccl.path().toString(), probe.dlError()))), probe);
            }
            ncclText = "NCCL " + probe.versionString();
        }
        String found = found(ncclText, libs);
        if (!libs.cudart().present()) {
            return new Verdict(Readiness.notReady(found,
                    ncclText + " found at " + nccl.path() + ", but no CUDA runtime: libcudart.so.13 not found",
                    remedy(Missing.noCudart())), probe);
        }
        if (probe != null && probe.bootstrapFailed()) {
            return new Verdict(Readiness.notReady(found,
                    ncclText + " at " + nccl.path() + " cannot bootstrap: ncclGetUniqueId returned " + probe.result().cName
                            + " (" + probe.uniqueIdStatus() + "): \"" + probe.ncclSentence() + "\"",
                    InterfaceAdvice.bootstrapRemedy(host.get(Variable.NCCL_SOCKET_IFNAME))), probe);
        }
        return new Verdict(Readiness.ready(found), probe);
    }

    /** "no GPU: no NVIDIA driver (libcuda.so.1 not found); NCCL found at ...": the driver first, NCCL as a fact. */
    static String noGpu(Found nccl) {
        return "no GPU: no NVIDIA driver (libcuda.so.1 not found)"
                + (nccl.present() ? "; NCCL found at " + nccl.path() : "; no NCCL either");
    }

    private static String found(String ncclText, Report libs) {
        return ncclText + " at " + libs.nccl().describe() + "; CUDA runtime: " + libs.cudart().describe()
                + "; NVIDIA driver: " + libs.driver().describe();
    }

    /** The remedy of env's finding for the same gap: one source for those words. */
    private static String remedy(Finding f) {
        return String.join("; ", f.remedy());
    }
}
