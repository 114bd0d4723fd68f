package dev.ncclbench.collective;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * The registry: adding a collective is one class, one {@link Kind} and one line here; the backends then fail to
 * compile until they run it.
 */
public final class Collectives {
    private static final Map<String, Collective> BY_NAME = new LinkedHashMap<>();

    static {
        for (Collective c : List.of(new AllReduce(), new AllGather(), new ReduceScatter(), new Broadcast(),
                new Reduce(), new AllToAll(), new SendRecv(), new Gather(), new Scatter(),
                new AllToAllV(AllToAllV.DEFAULT_SPREAD), new HyperCube())) {
            BY_NAME.put(c.name(), c);
        }
    }

    private Collectives() {
    }

    /**
     * alltoallv's pattern from NCCL_TESTS_ALLTOALLV_SPREAD's value (null when unset). nccl-tests reads it once per
     * process into a global (AlltoAllvParseEnv); here the command line reads the environment once and sets it
     * before any command runs, so that the sizes, the backends' sends and the checks all see one pattern.
     */
    public static synchronized void allToAllVSpread(String value) {
        BY_NAME.put(Kind.ALLTOALLV.label(), new AllToAllV(AllToAllV.spreadOf(value)));
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
