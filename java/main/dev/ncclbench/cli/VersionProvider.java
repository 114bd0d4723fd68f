package dev.ncclbench.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest, or "dev" when run from classes. */
public final class VersionProvider implements IVersionProvider {
    public static String version() {
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"ncclbench " + version()};
    }
}
