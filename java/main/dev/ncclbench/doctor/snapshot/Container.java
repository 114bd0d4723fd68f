package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/** Whether this looks like a container, and the signs (/.dockerenv, a cgroup path, KUBERNETES_SERVICE_HOST). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Container(boolean inContainer, List<String> signs) {
    public Container {
        signs = List.copyOf(signs);
    }
}
