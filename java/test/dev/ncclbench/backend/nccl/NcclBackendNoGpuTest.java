package dev.ncclbench.backend.nccl;

import dev.ncclbench.cli.Main;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.RealNccl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** On a machine without a GPU: exit 3 naming the driver, then the NCCL found; auto says why it uses sockets. */
class NcclBackendNoGpuTest {
    @Test
    void sweepWithNcclExits3NamingTheDriverAndTheNcclFound() {
        Path lib = RealNccl.require();
        assumeFalse(Host.of(System.getenv()).libraries().driver().present(), "this machine has an NVIDIA driver");
        assumeFalse(System.getenv("NCCL_SOCKET_IFNAME") != null, "NCCL_SOCKET_IFNAME is set in the test environment");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"sweep", "--backend", "nccl", "-b", "8", "-e", "64"}, new PrintWriter(out), new PrintWriter(err));
        assertEquals(3, code, err.toString());
        String e = err.toString();
        // the driver is what a person installs first: "no GPU" leads, the NCCL found is a fact after it
        assertTrue(e.contains("the nccl backend cannot run here: no GPU: no NVIDIA driver (libcuda.so.1 not found); NCCL"
                + " found at " + Host.of(System.getenv()).libraries().nccl().path()), e + " vs " + lib);
        assertTrue(e.contains("install the NVIDIA driver"), e);
    }

    @Test
    void autoSaysWhyItFallsBackToSockets(@TempDir Path dir) throws Exception {
        RealNccl.require();
        assumeFalse(Host.of(System.getenv()).libraries().driver().present(), "this machine has an NVIDIA driver");
        Path json = dir.resolve("run.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"sweep", "--backend", "auto", "--ranks", "1", "-b", "8", "-e", "8", "-n", "1",
                "-w", "0", "--json", json.toString()}, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, err.toString());
        // the sweep's first line says which backend and why, the GPU's absence first though NCCL is there; the
        // table's first line and the result's backend_reason say the same
        String reason = "auto: no GPU: no NVIDIA driver (libcuda.so.1 not found); NCCL found at "
                + Host.of(System.getenv()).libraries().nccl().path();
        assertEquals("ncclbench: backend socket (" + reason + ")", err.toString().lines().findFirst().orElse(""), err.toString());
        assertEquals("# ncclbench version " + dev.ncclbench.Version.string() + " backend socket (" + reason + ")",
                out.toString().lines().findFirst().orElse(""), out.toString());
        assertEquals(reason, dev.ncclbench.output.Json.mapper().readTree(json.toFile()).path("backend_reason").asText());
    }

    @Test
    void envListsWhatWasFoundAndWhatIsMissing() {
        RealNccl.require();
        StringWriter out = new StringWriter();
        int code = Main.run(new String[] {"env"}, new PrintWriter(out), new PrintWriter(new StringWriter()));
        String o = out.toString();
        // like probe: exit 3 when something needed is missing, 0 when nothing is
        assertEquals(o.contains("Missing: nothing") ? 0 : 3, code, o);
        assertTrue(o.contains("NCCL") && o.contains("2.30.") && o.contains("libnccl.so.2 (from "), o);
        assertTrue(o.contains("CUDA runtime") && o.contains("NVIDIA driver") && o.contains("GPUs"), o);
        if (!Host.of(System.getenv()).libraries().driver().present()) {
            assertTrue(o.contains("NVIDIA driver (libcuda.so.1)"), o);
        }
    }

    @Test
    void fp8IsRefusedAsAUsageErrorBeforeAnythingIsLoaded() {
        for (String t : new String[] {"f8e4m3", "f8e5m2"}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new String[] {"sweep", "--backend", "nccl", "-d", t, "-b", "8", "-e", "64"},
                    new PrintWriter(out), new PrintWriter(err));
            assertEquals(2, code, err.toString());
            String e = err.toString().trim();
            assertTrue(e.contains("-d " + t + " is not supported by the nccl backend") && !e.contains("\tat "), e);
            assertEquals(1, e.lines().count(), e);
        }
    }

    @Test
    void perIterationTimingIsZeroOrOne() {
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"sweep", "--backend", "nccl", "-I", "2"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err));
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("'--per_iter_timing': must be 0 or 1, got 2"), err.toString());
        assertEquals(1, err.toString().trim().lines().count(), err.toString());
    }

    /**
     * nccl-tests' -u, -R and -p are the nccl backend's (checked up to the driver, which this machine lacks: exit 3, not
     * a refusal of the flag); -M is refused by name; on sockets all four need a GPU.
     */
    @Test
    void theNcclBackendTakesUnalignRegisterAndParallelInit() {
        RealNccl.require();
        assumeFalse(Host.of(System.getenv()).libraries().driver().present(), "this machine has an NVIDIA driver");
        for (String flag : new String[] {"-u 1", "-R 1", "-R 2", "-p 1"}) {
            StringWriter err = new StringWriter();
            String[] args = ("sweep --backend nccl -b 8 -e 64 " + flag).split(" ");
            assertEquals(3, Main.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err)), flag + ": " + err);
            assertTrue(err.toString().contains("no NVIDIA driver"), err.toString());
        }
        StringWriter err = new StringWriter();
        assertEquals(2, Main.run("sweep --backend nccl -b 8 -e 64 -M 1".split(" "), new PrintWriter(new StringWriter()),
                new PrintWriter(err)));
        assertTrue(err.toString().contains("nccl-tests flag -M 1 (memory) is not implemented on the nccl backend yet"), err.toString());
        err = new StringWriter();
        assertEquals(2, Main.run("sweep --backend socket --ranks 1 -b 8 -e 64 -u 1".split(" "),
                new PrintWriter(new StringWriter()), new PrintWriter(err)));
        assertTrue(err.toString().contains("nccl-tests flag -u 1 (unalign) needs a GPU"), err.toString());
    }
}
