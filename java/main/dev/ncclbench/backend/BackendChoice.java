package dev.ncclbench.backend;

import dev.ncclbench.spec.Capability;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.spec.RunSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Which backend runs, and why: --backend NAME when it is ready here, else exit 3 with its reason; --backend
 * auto takes the first ready backend in {@link Backend#autoOrder} order and says why it passed over the others.
 *
 * @param reason    why this backend runs, recorded in the result as backend_reason and said in the sweep's first
 *                  line (e.g. "auto: no GPU: no NVIDIA driver (libcuda.so.1 not found)")
 * @param announce  whether the reason deserves a visible line (auto passed over a backend)
 */
public record BackendChoice(Backend backend, String reason, Readiness readiness, boolean announce) {

    /**
     * @param singleNode whether every rank of the job is on this node: a socket-interface backend then binds
     *                   loopback, and its readiness is judged on that
     * @param host       the machine, as the command line built it: each backend's readiness is asked of it
     */
    public static BackendChoice choose(RunSpec spec, boolean singleNode, Host host) {
        if (!spec.placement().backend().equals("auto")) {
            Backend b = Backends.byName(spec.placement().backend());
            if (b == null) {
                throw NcclbenchException.usage("unknown backend '" + spec.placement().backend() + "'; known: auto, "
                        + String.join(", ", Backends.names()));
            }
            Readiness r = b.readiness(specFor(b, spec, singleNode), host);
            if (!r.ready()) {
                // `ncclbench env` lists everything found; the reason already names what matters
                throw new NcclbenchException(ExitCode.ENVIRONMENT, "the " + b.name() + " backend cannot run here: "
                        + r.reason() + (r.remedy() == null ? "" : "; " + r.remedy()));
            }
            return new BackendChoice(b, "asked with --backend " + b.name(), r, false);
        }
        List<String> passedOver = new ArrayList<>();
        Readiness last = null;
        for (Backend b : Backends.all()) {
            Readiness r = b.readiness(specFor(b, spec, singleNode), host);
            if (r.ready()) {
                if (passedOver.isEmpty()) {
                    return new BackendChoice(b, "auto: " + r.found(), r, false);
                }
                // the first passed over is auto's first choice, and its reason is why this one runs instead
                return new BackendChoice(b, "auto: " + String.join("; ", passedOver), r, true);
            }
            passedOver.add(passedOver.isEmpty() ? r.reason() : b.name() + ": " + r.reason());
            last = r;
        }
        List<String> why = new ArrayList<>();
        List<Backend> all = Backends.all();
        for (int i = 0; i < all.size(); i++) {
            String reason = passedOver.get(i);
            why.add(i == 0 ? all.get(i).name() + ": " + reason : reason);
        }
        throw new NcclbenchException(ExitCode.ENVIRONMENT, "no backend can run here: " + String.join("; ", why)
                + (last == null || last.remedy() == null ? "" : "; " + last.remedy()));
    }

    /** "backend socket (auto: no GPU: ...)": which backend runs and why, as the sweep's first line says it. */
    public String line() {
        return "backend " + backend.name() + " (" + reason + ")";
    }

    /** The spec {@code backend} runs with here: a socket-interface backend binds loopback on one node unless told. */
    public static RunSpec specFor(Backend backend, RunSpec spec, boolean singleNode) {
        if (backend.capabilities().contains(Capability.SOCKET_INTERFACE) && spec.socket().ifname() == null && singleNode) {
            return spec.withSocket(spec.socket().boundTo("lo"));
        }
        return spec;
    }
}
