package dev.ncclbench.baseline;

import dev.ncclbench.InstallDir;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Which folder holds the baselines: the one rule of baseline record, list and show, gate, report, sweep --html,
 * preflight and fleet, so that the baseline one command recorded is the one the next finds, from any folder.
 * <ol>
 * <li>--baseline-dir DIR as given (a relative name from the working directory, as every file on a command line);</li>
 * <li>else results/baselines of the ncclbench that runs ({@link InstallDir#home}): the checkout of scripts/ncclbench,
 * or the unpacked bundle, beside the fabric catalog (diagnosis/CatalogLocation reads it from the same folder);</li>
 * <li>else results/baselines of the working directory: a jar run on its own has no install folder.</li>
 * </ol>
 * Why not the working directory first: a CI job that cds into its workspace, or a bundle user in their home, would
 * find no baseline there, and a gate that quietly compared nothing passed a regression (issue 50).
 */
public final class BaselineFolder {
    private BaselineFolder() {
    }

    /** The folder to read and write baselines in. */
    public static Path of(Path given) {
        return of(given, InstallDir.home());
    }

    /**
     * @param given --baseline-dir, or null
     * @param home  the checkout or bundle this code runs from, if any
     */
    public static Path of(Path given, Optional<Path> home) {
        if (given != null) {
            return given;
        }
        return home.map(h -> h.resolve(InstallDir.BASELINES)).orElse(InstallDir.BASELINES);
    }

    /** The --baseline-dir help: what the default is, in words. */
    public static final String DEFAULT_HELP = "baseline folder (default: results/baselines of ncclbench's checkout or"
            + " bundle, from any working folder)";
}
