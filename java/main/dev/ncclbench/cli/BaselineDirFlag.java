package dev.ncclbench.cli;

import dev.ncclbench.baseline.BaselineFolder;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The baseline folder, under one name in every command that reads or writes baselines (gate, report, preflight,
 * baseline record|list|show, fleet). gate, report, preflight and baseline called it --dir: a {@link RenamedFlag}.
 */
final class BaselineDirFlag {
    static final String FLAG = "--baseline-dir";

    @Option(names = FLAG, paramLabel = "DIR", description = BaselineFolder.DEFAULT_HELP + "; --dir is its old name,"
            + " still taken")
    Path dir;

    @Option(names = "--dir", paramLabel = "DIR", hidden = true)
    Path oldName;

    /** The folder given, or null for the default; both names for two folders is exit 2. */
    Path get() {
        return RenamedFlag.value(FLAG, dir, "--dir", oldName, "baseline folders");
    }
}
