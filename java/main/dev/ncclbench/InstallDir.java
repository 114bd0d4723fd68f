package dev.ncclbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the running ncclbench lies, found from its own code, never from the working directory: scripts/ncclbench
 * runs target/ncclbench.jar of its checkout (and the tests target/classes), the bundle's bin/ncclbench runs
 * lib/ncclbench.jar beside its bin/. Both launchers find their folder through symlinks, so this is the folder a user
 * unpacked or cloned, wherever they run the command from.
 */
public final class InstallDir {
    /** Overrides the lookup (the build passes the checkout to the tests' child JVMs). */
    public static final String PROPERTY = "ncclbench.basedir";
    /**
     * The folder of a checkout or bundle that holds what a site keeps beside the code: the fabric catalog
     * (diagnosis/CatalogLocation) and the recorded baselines (baseline/BaselineFolder).
     */
    public static final Path BASELINES = Path.of("results", "baselines");

    private InstallDir() {
    }

    /** The checkout this code was built in (for deps/, which only a checkout has), if it runs from one. */
    public static Optional<Path> checkout() {
        return checkout(System.getProperty(PROPERTY), codeSource());
    }

    /** The checkout, or the unpacked bundle: the folder whose results/baselines/ ships with this code. */
    public static Optional<Path> home() {
        return home(System.getProperty(PROPERTY), codeSource());
    }

    /**
     * @param property   -Dncclbench.basedir, or null
     * @param codeSource the jar or classes folder this code was loaded from, or null
     */
    static Optional<Path> checkout(String property, Path codeSource) {
        if (property != null && !property.isBlank()) {
            return Optional.of(Path.of(property));
        }
        // target/ncclbench.jar or target/classes
        Path target = codeSource == null ? null : codeSource.getParent();
        if (target != null && target.getFileName() != null && target.getFileName().toString().equals("target")) {
            return Optional.ofNullable(target.getParent());
        }
        return Optional.empty();
    }

    static Optional<Path> home(String property, Path codeSource) {
        Optional<Path> checkout = checkout(property, codeSource);
        if (checkout.isPresent()) {
            return checkout;
        }
        // the bundle of scripts/package.sh: lib/ncclbench.jar beside bin/ncclbench
        Path lib = codeSource == null ? null : codeSource.getParent();
        Path home = lib == null ? null : lib.getParent();
        if (home != null && lib.getFileName().toString().equals("lib")
                && Files.isRegularFile(home.resolve("bin").resolve("ncclbench"))) {
            return Optional.of(home);
        }
        return Optional.empty();
    }

    private static Path codeSource() {
        try {
            return Path.of(InstallDir.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            return null; // no code source (e.g. a jlink'd image): no install folder to find
        }
    }
}
