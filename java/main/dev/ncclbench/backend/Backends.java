package dev.ncclbench.backend;

import dev.ncclbench.spec.Capability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The backends on the class path, found through {@link ServiceLoader}: a new backend is one class and one line
 * in META-INF/services/dev.ncclbench.backend.Backend. Creating a backend object loads no native code.
 */
public final class Backends {
    private Backends() {
    }

    /** Every backend, in --backend auto's order. */
    public static List<Backend> all() {
        List<Backend> out = new ArrayList<>();
        ServiceLoader.load(Backend.class, Backends.class.getClassLoader()).forEach(out::add);
        out.sort(Comparator.comparingInt(Backend::autoOrder));
        return out;
    }

    /** null when unknown. */
    public static Backend byName(String name) {
        for (Backend b : all()) {
            if (b.name().equals(name)) {
                return b;
            }
        }
        return null;
    }

    /**
     * What the backend a result records could do: a recorded run is asked by capability, as a live backend is,
     * never by its name. Empty for a name no backend here has (a result of another version): it claims nothing.
     */
    public static Set<Capability> capabilitiesOf(String recorded) {
        Backend b = recorded == null ? null : byName(recorded);
        return b == null ? Set.of() : b.capabilities();
    }

    public static List<String> names() {
        List<String> out = new ArrayList<>();
        all().forEach(b -> out.add(b.name()));
        return out;
    }
}
