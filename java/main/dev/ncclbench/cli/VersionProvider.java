package dev.ncclbench.cli;

import dev.ncclbench.Version;
import picocli.CommandLine.IVersionProvider;

/** --version: the one version string ({@link Version}). */
public final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"ncclbench " + Version.string()};
    }
}
