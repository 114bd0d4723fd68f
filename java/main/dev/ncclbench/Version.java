package dev.ncclbench;

/** The one version string: the jar manifest's, or "0.1.0-dev" when run from classes. */
public final class Version {
    private Version() {
    }

    public static String string() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-dev" : v;
    }
}
