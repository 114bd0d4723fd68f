package dev.ncclbench.collective;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * The registry: adding a collective is one class, one {@link Kind} and one line here; the backends then fail to
 * compile until they run it.
 */
public final class Collectives {
    /** Written once, here: the registry is the same for every run of the process (alltoallv's spread is the spec's). */
    private static final Map<String, Collective> BY_NAME = registry();

    private Collectives() {
    }

    private static Map<String, Collective> registry() {
        Map<String, Collective> byName = new LinkedHashMap<>();
        for (Collective c : List.of(new AllReduce(), new AllGather(), new ReduceScatter(), new Broadcast(),
                new Reduce(), new AllToAll(), new SendRecv(), new Gather(), new Scatter(),
                new AllToAllV(AllToAllV.DEFAULT_SPREAD), new HyperCube())) {
            byName.put(c.name(), c);
        }
        return Collections.unmodifiableMap(byName);
    }

    /**
     * {@link #byName}, with alltoallv's pattern from NCCL_TESTS_ALLTOALLV_SPREAD's value as set ({@code spread}; null:
     * unset, nccl-tests' default). nccl-tests reads it once per process into a global (AlltoAllvParseEnv); here it
     * travels in the spec (RunSpec's NcclTestsFlags), so that every rank agrees on it and the sizes, the backends'
     * sends and the checks all see one pattern.
     */
    public static Collective byName(String name, String spread) {
        Collective c = byName(name);
        return c != null && c.kind() == Kind.ALLTOALLV && spread != null ? new AllToAllV(AllToAllV.spreadOf(spread)) : c;
    }

    public static List<Collective> all() {
        return List.copyOf(BY_NAME.values());
    }

    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /** Accepts nccl-tests' names and their binary names (all_reduce_perf, allreduce). null when unknown. */
    public static Collective byName(String name) {
        String k = name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        if (k.endsWith("_perf")) {
            k = k.substring(0, k.length() - 5);
        }
        Collective c = BY_NAME.get(k);
        if (c != null) {
            return c;
        }
        for (Collective candidate : BY_NAME.values()) {
            if (candidate.name().replace("_", "").equals(k.replace("_", ""))) {
                return candidate;
            }
        }
        return null;
    }

    /** Parses a comma list, or "all". Throws IllegalArgumentException naming the unknown entry. */
    public static List<Collective> parseList(String spec) {
        List<Collective> out = new ArrayList<>();
        for (String part : spec.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            if (part.trim().equalsIgnoreCase("all")) {
                return all().stream().filter(Collective::inAll).toList();
            }
            Collective c = byName(part);
            if (c == null) {
                throw new IllegalArgumentException("unknown collective '" + part.trim() + "'; known: "
                        + String.join(", ", names()) + ", all");
            }
            if (!out.contains(c)) {
                out.add(c);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no collective given; known: " + String.join(", ", names()) + ", all");
        }
        return out;
    }
}
