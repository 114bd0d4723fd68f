package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.RuleBook;

import java.util.List;

/** The explain rules, in the order they run (and `ncclbench rules` lists them). A new rule is one line here. */
public final class ExplainRules {
    private static final RuleBook<Facts> BOOK = new RuleBook<>("explain", List.of(
            new NoNcclLines(),
            new BootstrapNoInterface(),
            new BootstrapRendezvous(),
            new NetConnectionFailure(),
            new NetPeerLost(),
            new IbCompletionError(),
            new IbVerbsError(),
            new CudaError(),
            new NetPluginFailed(),
            new SocketError(),
            new NcclAsyncError(),
            new NcclError(),
            new NetSocketFallback(),
            new NetSocketNoRdma(),
            new SocketStrayInterface(),
            new NetIbNoGdr(),
            new NetGdrAsymmetric(),
            new NetGdrDisagree(),
            new NetPlugin(),
            new NetPluginSlowProgress(),
            new NetPxn(),
            new NetNicUnused(),
            new NetNicOverloaded(),
            new MnnvlFabricHealth(),
            new IntraShm(),
            new CollnetUnavailable(),
            new NcclWarn(),
            new NcclVersionMixed(),
            new NoPathEvidence(),
            new InterNodePathUnknown(),
            new InitNotComplete(),
            new LogLinesUnused()));

    private ExplainRules() {
    }

    public static RuleBook<Facts> book() {
        return BOOK;
    }
}
