package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.netif.InterfaceAdvice;

import java.util.Optional;

/** The NCCL_SOCKET_IFNAME value doctor recommends: the fastest known interface, else NCCL's own default pick. */
final class SocketAdvice {
    private SocketAdvice() {
    }

    static String bestValue(HostSnapshot s) {
        Optional<HostFacts.Usable> fast = HostFacts.fastest(s);
        if (fast.isPresent()) {
            return fast.get().name();
        }
        return InterfaceAdvice.suggestion(InterfacePredictor.candidates(s));
    }
}
