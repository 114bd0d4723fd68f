package dev.ncclbench.backend;

import dev.ncclbench.backend.nccl.NcclBackend;
import dev.ncclbench.backend.socket.SocketBackend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The registry of backends. Creating a backend object loads no native code. */
public final class Backends {
    private static final Map<String, Supplier<Backend>> BY_NAME = new LinkedHashMap<>();

    static {
        BY_NAME.put("nccl", NcclBackend::new);
        BY_NAME.put("socket", SocketBackend::new);
    }

    private Backends() {
    }

    /** null when unknown. */
    public static Backend byName(String name) {
        Supplier<Backend> s = BY_NAME.get(name);
        return s == null ? null : s.get();
    }

    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }
}
