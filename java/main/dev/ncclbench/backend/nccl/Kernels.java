package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.DataType;
import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.cuda.cudart.CUmod_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

import java.io.IOException;
import java.io.InputStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fill and verify kernels of native/kernels (ncclbench_kernels.fatbin in the jar), loaded into one GPU's
 * primary context with cuModuleLoadData and launched with cuLaunchKernel. One module per device, loaded once
 * per process; when the fatbin is missing or the driver refuses it (no image for this GPU), {@link #on}
 * says why and the caller fills and checks on the host instead.
 */
final class Kernels {
    static final String FATBIN = "/dev/ncclbench/native/ncclbench_kernels.fatbin";
    static final String PTX = "/dev/ncclbench/native/ncclbench_kernels.ptx";
    private static final int BLOCK = 256;
    private static final int MAX_GRID = 8192;
    private static final Map<Integer, Object> BY_DEVICE = new ConcurrentHashMap<>();

    private final CUmod_st module;
    private final String source;
    private final Map<DataType, EnumMap<KernelSignature, CUfunc_st>> functions = new ConcurrentHashMap<>();

    private Kernels(CUmod_st module, String source) {
        this.module = module;
        this.source = source;
    }

    /** Where the module came from, for the header: "fatbin" or "ptx (JIT)". */
    String source() {
        return source;
    }

    /**
     * The kernels on the current device (cudaSetDevice done by the caller), or the reason they cannot be
     * used, as a String.
     */
    static Object on(int device) {
        return BY_DEVICE.computeIfAbsent(device, d -> load());
    }

    private static Object load() {
        // the runtime's primary context must exist and be current before the driver API can load into it
        int rc = cudart.cudaFree(null);
        if (rc != 0) {
            return "the CUDA context could not be created (" + CudaStatus.name(rc) + ")";
        }
        String why = "";
        for (String res : new String[] {FATBIN, PTX}) {
            byte[] image = resource(res);
            if (image == null) {
                why += res.substring(res.lastIndexOf('/') + 1) + " is not in the jar (built without nvcc); ";
                continue;
            }
            BytePointer data = new BytePointer(image.length + 1L);
            data.put(image).put(image.length, (byte) 0); // PTX is text and must end in NUL
            CUmod_st mod = new CUmod_st();
            int r = cudart.cuModuleLoadData(mod, data);
            if (r == 0) {
                return new Kernels(mod, res.equals(FATBIN) ? "fatbin" : "ptx (JIT)");
            }
            why += "cuModuleLoadData(" + res.substring(res.lastIndexOf('/') + 1) + ") returned " + r + "; ";
        }
        return why.isEmpty() ? "no kernel image" : why.substring(0, why.length() - 2);
    }

    static byte[] resource(String name) {
        try (InputStream in = Kernels.class.getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    private CUfunc_st function(KernelSignature k, DataType t) {
        EnumMap<KernelSignature, CUfunc_st> m = functions.computeIfAbsent(t, x -> new EnumMap<>(KernelSignature.class));
        synchronized (m) {
            return m.computeIfAbsent(k, x -> {
                CUfunc_st f = new CUfunc_st();
                int r = cudart.cuModuleGetFunction(f, module, k.function(t));
                if (r != 0) {
                    throw new IllegalStateException("cuModuleGetFunction(" + k.function(t) + ") returned " + r);
                }
                return f;
            });
        }
    }

    /**
     * Launches kernel k over {@code count} elements with the arguments of one of KernelSignature's builders.
     *
     * @return the CUresult of cuLaunchKernel (0 when launched)
     */
    int launch(KernelSignature k, DataType t, long count, CUstream_st stream, Object[] args) {
        k.bind(args);
        PointerPointer<Pointer> params = new PointerPointer<>(args.length);
        Pointer[] keep = new Pointer[args.length];
        for (int i = 0; i < args.length; i++) {
            KernelSignature.Param p = k.params.get(i);
            if (p == KernelSignature.Param.INT32) {
                keep[i] = new IntPointer(1).put((Integer) args[i]);
            } else {
                keep[i] = new LongPointer(1).put((Long) args[i]);
            }
            params.put(i, keep[i]);
        }
        int grid = (int) Math.max(1, Math.min(MAX_GRID, (count + BLOCK - 1) / BLOCK));
        int r = cudart.cuLaunchKernel(function(k, t), grid, 1, 1, BLOCK, 1, 1, 0, stream, params, null);
        for (Pointer p : keep) {
            p.close();
        }
        params.close();
        return r;
    }
}
