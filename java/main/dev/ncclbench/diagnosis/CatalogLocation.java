package dev.ncclbench.diagnosis;

import dev.ncclbench.InstallDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Which fabric catalog a command reads: the one rule of doctor, gate, sweep's and fleet's --fabric, preflight and
 * report, so that one run is never judged against two catalogs by two commands.
 * <ol>
 * <li>--catalog FILE, as given (a relative name from the working directory, as every file on a command line);</li>
 * <li>else results/baselines/fabric-catalog.txt of the ncclbench that runs ({@link InstallDir#home}): the checkout
 * of scripts/ncclbench, or the unpacked bundle, from whatever folder the command is started;</li>
 * <li>else the copy built into the jar.</li>
 * </ol>
 * Why this order: a flag said on the command line wins over anything found. The catalog describes a site's fabrics
 * and is edited once beside the code (the bundle ships it for that), while the working directory is where a job's
 * runs and baselines go and changes with every job: a catalog looked up there would give doctor and the gate
 * different line rates for the same run whenever a command was started from another folder. The built-in copy
 * equals the repository's as committed, so a jar run on its own still judges by the published rates.
 */
public final class CatalogLocation {
    /** Where the site-editable catalog lives in a checkout and in a bundle. */
    public static final Path IN_INSTALL = InstallDir.BASELINES.resolve("fabric-catalog.txt");

    private CatalogLocation() {
    }

    /** The catalog to use; a --catalog file that is missing or bad is a usage error naming it (exit 2). */
    public static FabricCatalog read(Path given) {
        Optional<Path> file = file(given, InstallDir.home());
        return file.isPresent() ? FabricCatalog.load(file.get()) : FabricCatalog.builtIn();
    }

    /**
     * The file the rule picks, empty for the built-in copy.
     *
     * @param given --catalog, or null
     * @param home  the checkout or bundle this code runs from, if any
     */
    public static Optional<Path> file(Path given, Optional<Path> home) {
        if (given != null) {
            return Optional.of(given);
        }
        return home.map(h -> h.resolve(IN_INSTALL)).filter(Files::isRegularFile);
    }
}
