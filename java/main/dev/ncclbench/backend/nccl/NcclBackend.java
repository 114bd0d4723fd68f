package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;

import java.util.List;

/** The NCCL backend (JavaCPP to libnccl and libcudart). */
public final class NcclBackend implements Backend {
    @Override
    public String name() {
        return "nccl";
    }

    @Override
    public Readiness readiness(RunSpec spec) {
        return Readiness.notReady("nothing", "the NCCL backend is not built yet", "use --backend socket");
    }

    @Override
    public List<RankComm> open(RunSpec spec, List<ControlPlane> planes) {
        throw new BackendException(ExitCode.ENVIRONMENT, "the NCCL backend is not built yet", "use --backend socket");
    }
}
