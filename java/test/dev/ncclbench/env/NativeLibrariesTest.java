package dev.ncclbench.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NativeLibrariesTest {
    @Test
    void ncclHomeWinsOverSitePackagesAndSaysSo(@TempDir Path tmp) throws Exception {
        Path home = Files.createDirectories(tmp.resolve("nccl/lib"));
        Files.writeString(home.resolve("libnccl.so.2"), "");
        Path site = Files.createDirectories(tmp.resolve("site/nvidia/nccl/lib"));
        Files.writeString(site.resolve("libnccl.so.2"), "");
        Path rt = Files.createDirectories(tmp.resolve("site/nvidia/cuda_runtime/lib"));
        Files.writeString(rt.resolve("libcudart.so.13"), "");
        List<NativeLibraries.Location> where = NativeLibraries.locations(
                Host.of(Map.of("NCCL_HOME", tmp.resolve("nccl").toString())), Map.of(), List.of(tmp.resolve("site")), null);
        NativeLibraries.Found nccl = NativeLibraries.findOne(NativeLibraries.NCCL, where);
        assertEquals(home.resolve("libnccl.so.2"), nccl.path());
        assertEquals("NCCL_HOME", nccl.source());
        assertTrue(where.contains(new NativeLibraries.Location(rt, "python site-packages (nvidia/cuda_runtime)")), where.toString());
        List<NativeLibraries.Location> noHome = NativeLibraries.locations(Host.of(Map.of()), Map.of(), List.of(tmp.resolve("site")), null);
        assertEquals("python site-packages (nvidia/nccl)", NativeLibraries.findOne(NativeLibraries.NCCL, noHome).source());
    }

    @Test
    void missingSaysWhereItLooked(@TempDir Path tmp) {
        NativeLibraries.Found f = NativeLibraries.findOne("libnothing.so.9",
                NativeLibraries.locations(Host.of(Map.of("LD_LIBRARY_PATH", tmp.toString())), Map.of(), List.of(), null));
        assertFalse(f.present());
        assertTrue(f.searched().get(0).startsWith("LD_LIBRARY_PATH"), f.searched().toString());
        assertEquals("not found", f.describe());
    }

    @Test
    void parsesLdconfig() {
        Map<String, Path> m = NativeLibraries.parseLdconfig("12 libs found in cache `/etc/ld.so.cache'\n"
                + "\tlibnccl.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnccl.so.2\n"
                + "\tlibcuda.so.1 (libc6) => /usr/lib32/libcuda.so.1\n");
        assertEquals(Path.of("/usr/lib/x86_64-linux-gnu/libnccl.so.2"), m.get("libnccl.so.2"));
        assertFalse(m.containsKey("libcuda.so.1"));
    }
}
