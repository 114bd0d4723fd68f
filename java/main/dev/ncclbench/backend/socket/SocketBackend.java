package dev.ncclbench.backend.socket;

import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;

import java.util.List;

/** Ranks connected by real TCP sockets: the socket floor, and the backend that runs anywhere. */
public final class SocketBackend implements Backend {
    @Override
    public String name() {
        return "socket";
    }

    @Override
    public Readiness readiness(RunSpec spec) {
        return Readiness.ready("TCP sockets");
    }

    @Override
    public List<RankComm> open(RunSpec spec, List<ControlPlane> planes) {
        throw new UnsupportedOperationException("todo");
    }
}
