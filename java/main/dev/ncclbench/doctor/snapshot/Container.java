package dev.ncclbench.doctor.snapshot;

import java.util.List;

/** Whether this looks like a container, and the signs (/.dockerenv, a cgroup path, KUBERNETES_SERVICE_HOST). */
public record Container(boolean inContainer, List<String> signs) {
    public Container {
        signs = List.copyOf(signs);
    }
}
