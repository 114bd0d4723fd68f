package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.RuleBook;

import java.util.List;

/** Every host rule of `ncclbench doctor`, in the order a person works the runbook: bootstrap, transport, GPUDirect. */
public final class DoctorRules {
    private static final RuleBook<HostEvidence> BOOK = new RuleBook<>("doctor", List.of(
            new SocketIfnameNoMatch(),
            new CommIdNoSubnet(),
            new ProbeBootstrapFailed(),
            new SocketLoopbackOnly(),
            new SocketIfnameIgnored(),
            new SocketDefaultSlowNic(),
            new SocketIfnameSlow(),
            new ProbeDisagrees(),
            new RdmaNone(),
            new IbDisabled(),
            new NetForcedSocket(),
            new IbHcaNoMatch(),
            new RdmaNoDeviceAccess(),
            new VerbsMissing(),
            new IbPortDown(),
            new RailPortDown(),
            new RailLinkLayer(),
            new RailTrainedDown(),
            new RailExcluded(),
            new RailNoNicNear(),
            new MemlockLimited(),
            new RoceNoGid(),
            new AcsRedirect(),
            new GdrNoPeerMemory(),
            new GdrLevelTooStrict(),
            EnvSwitchRule.P2P_DISABLED,
            EnvSwitchRule.SHM_DISABLED,
            new ShmSmall(),
            new GpuWithoutGdr(),
            new NcclNotFound(),
            new EvidenceMissing()));

    private DoctorRules() {
    }

    public static RuleBook<HostEvidence> book() {
        return BOOK;
    }
}
