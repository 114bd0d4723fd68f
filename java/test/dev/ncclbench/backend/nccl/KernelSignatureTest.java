package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.DataType;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The kernels cannot run here, but the driver API reads their parameters from the addresses Java gives:
 * the layout must match pattern.cu's signatures parameter for parameter, and the fatbin must be where the
 * backend loads it from.
 */
class KernelSignatureTest {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", "."));
    private static final Pattern KERNEL = Pattern.compile(
            "extern \"C\" __global__ void ncclbench_(\\w+?)_##NAME\\(([^)]*)\\)");

    /** pattern.cu's KERNELS macro, stem -> parameter kinds. */
    private static Map<String, List<KernelSignature.Param>> fromSource() throws Exception {
        String cu = Files.readString(BASE.resolve("native/kernels/pattern.cu")).replace("\\\n", " ");
        Map<String, List<KernelSignature.Param>> out = new java.util.LinkedHashMap<>();
        Matcher m = KERNEL.matcher(cu.replaceAll("\\s+", " "));
        while (m.find()) {
            List<KernelSignature.Param> params = new ArrayList<>();
            for (String p : m.group(2).split(",")) {
                String t = p.trim();
                if (t.contains("*")) {
                    params.add(KernelSignature.Param.POINTER);
                } else if (t.startsWith("int64_t")) {
                    params.add(KernelSignature.Param.INT64);
                } else if (t.startsWith("int ")) {
                    params.add(KernelSignature.Param.INT32);
                } else {
                    throw new AssertionError("unknown parameter type in pattern.cu: " + t);
                }
            }
            out.put(m.group(1), params);
        }
        return out;
    }

    @Test
    void everyKernelOfTheSourceHasTheSameParametersInJava() throws Exception {
        Map<String, List<KernelSignature.Param>> cu = fromSource();
        assertEquals(KernelSignature.values().length, cu.size(), "kernels in pattern.cu: " + cu.keySet());
        for (KernelSignature k : KernelSignature.values()) {
            assertEquals(cu.get(k.stem), k.params, k + " vs pattern.cu's ncclbench_" + k.stem);
        }
    }

    @Test
    void theTypedBuildersTakeJavaTypesOfTheSameWidths() throws Exception {
        Map<String, String> builder = Map.of("fill", "fill", "poison", "poison", "verify_copy", "verifyCopy",
                "verify_reduced", "verifyReduced");
        for (KernelSignature k : KernelSignature.values()) {
            Method m = null;
            for (Method c : KernelSignature.class.getDeclaredMethods()) {
                if (c.getName().equals(builder.get(k.stem))) {
                    m = c;
                }
            }
            assertNotNull(m, "no builder for " + k);
            Class<?>[] want = k.params.stream().map(p -> p == KernelSignature.Param.INT32 ? int.class : long.class)
                    .toArray(Class<?>[]::new);
            assertArrayEquals(want, m.getParameterTypes(), k.toString());
        }
        assertThrows(IllegalArgumentException.class, () -> KernelSignature.FILL.bind(1L, 2L, 3L, 4L, 5));
        assertThrows(IllegalArgumentException.class, () -> KernelSignature.POISON.bind(1L));
    }

    @Test
    void everyTypeButFp8HasKernelsInTheSource() throws Exception {
        String cu = Files.readString(BASE.resolve("native/kernels/pattern.cu"));
        for (DataType t : DataType.values()) {
            if (KernelSignature.suffix(t).isPresent()) {
                assertTrue(cu.contains("KERNELS(" + t.label() + ","), "pattern.cu has no KERNELS(" + t.label() + ", ...)");
                assertEquals("ncclbench_fill_" + t.label(), KernelSignature.FILL.function(t));
            }
        }
        assertTrue(KernelSignature.suffix(DataType.F8E4M3).isEmpty());
    }

    @Test
    void theFatbinIsOnTheClasspathWithSm90Code() throws Exception {
        Path built = Path.of(System.getProperty("ncclbench.native.dir", "target/native"), "kernels", "ncclbench_kernels.fatbin");
        assumeTrue(Files.isRegularFile(built), "the kernels were not built here (no nvcc when mvn ran): " + built);
        byte[] jar = Kernels.resource(Kernels.FATBIN);
        assertNotNull(jar, Kernels.FATBIN + " is not on the classpath: native/build.sh did not copy it");
        assertArrayEquals(Files.readAllBytes(built), jar);
        // a fatbin starts with its magic 0xBA55ED50 (little-endian)
        assertEquals(0xBA55ED50, java.nio.ByteBuffer.wrap(jar, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt());
        assertNotNull(Kernels.resource(Kernels.PTX));
        Path cuobjdump = Path.of("/usr/local/cuda/bin/cuobjdump");
        if (Files.isExecutable(cuobjdump)) {
            Process p = new ProcessBuilder(cuobjdump.toString(), "--list-elf", built.toString()).redirectErrorStream(true).start();
            String list = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            assertTrue(list.contains("sm_90"), "no sm_90 image in the fatbin (H100/H200): " + list);
        }
    }
}
