package dev.ncclbench.cli;

import picocli.CommandLine.Option;

/**
 * -h/--help and --version for the commands that take the sweep's flags: picocli's standard pair would claim -V,
 * which is nccl-tests' device_cta_count there (NcclTestsFlags), so the version is --version alone.
 */
final class HelpFlags {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "Print version information and exit.")
    boolean version;
}
