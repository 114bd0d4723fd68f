package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.RuleBook;

import java.util.List;

/** The explain rules, in the order they run (and `ncclbench rules` lists them). A new rule is one line here. */
public final class ExplainRules {
    public static final RuleBook<Facts> BOOK = new RuleBook<>("explain", List.of(
            new NoNcclLines(),
            new BootstrapNoInterface(),
            new NetConnectionFailure(),
            new IbVerbsError(),
            new NcclError(),
            new NetSocketFallback(),
            new NetSocketNoRdma(),
            new SocketStrayInterface(),
            new NetIbNoGdr(),
            new NetGdrAsymmetric(),
            new NetPlugin(),
            new NetPxn(),
            new IntraShm(),
            new CollnetUnavailable(),
            new NcclWarn(),
            new NcclVersionMixed(),
            new NoPathEvidence(),
            new InitNotComplete(),
            new LogLinesUnused()));

    private ExplainRules() {
    }
}
