package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** A small /dev/shm (containers default to 64 MB): NCCL's shared-memory segments fail with "unhandled system error". */
public final class ShmSmall extends BaseRule<HostEvidence> {
    /** Below this NCCL's SHM transport and proxy buffers run out with a few GPUs. */
    static final long SMALL = 512L << 20;

    public ShmSmall() {
        super("SHM-SMALL", Severity.ERROR,
                "/dev/shm is small (containers default to 64 MB): NCCL fails with 'unhandled system error'");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        Long size = s.shmBytes();
        if (size == null || size >= SMALL) {
            return List.of();
        }
        boolean multiGpu = HostFacts.gpus(s) != 1;
        return List.of(finding(multiGpu ? Severity.ERROR : Severity.WARNING, "/dev/shm is " + HostFacts.mib(size)
                        + (s.container().inContainer() ? " (a container's default)" : ""),
                "NCCL creates its shared-memory segments in /dev/shm (SHM transport, proxy buffers); too small and"
                        + " ncclCommInitRank fails with 'unhandled system error', a classic of nccl-tests' issue tracker.",
                List.of("/dev/shm: " + size + " bytes"),
                List.of("docker run --shm-size=8g ... (or --ipc=host)", "Kubernetes: mount an emptyDir with medium: Memory at /dev/shm"),
                References.NET_DOC));
    }
}
