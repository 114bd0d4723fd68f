package dev.ncclbench.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The fabric a job should reach, from the catalog: shared by sweep, fleet, gate, report and preflight. */
final class FabricFlags {
    @Option(names = "--fabric", paramLabel = "ID", description = "The fabric this job should use, from the catalog"
            + " (e.g. ib-hdr, roce-100g, eth-10g, nvlink4): busbw is judged against its line rate (fleet: a pair"
            + " running alone below its healthy minimum is slow)")
    String fabric;

    @Option(names = "--catalog", paramLabel = "FILE", description = "Fabric catalog (default:"
            + " results/baselines/fabric-catalog.txt of ncclbench's checkout or bundle, from any folder, when present;"
            + " else the built-in copy)")
    Path catalog;
}
