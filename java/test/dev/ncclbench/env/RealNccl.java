package dev.ncclbench.env;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real libnccl.so.2 the tests use: NCCL_HOME, else deps/nccl (scripts/fetch-nccl.sh). */
public final class RealNccl {
    private RealNccl() {
    }

    public static Path library() {
        String home = System.getenv("NCCL_HOME");
        if (home != null) {
            Path p = Path.of(home, "lib", "libnccl.so.2");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        Path p = Path.of(System.getProperty("ncclbench.basedir", "."), "deps", "nccl", "lib", "libnccl.so.2");
        return Files.isRegularFile(p) ? p.toAbsolutePath() : null;
    }

    /** Skips the test, with the reason, when no real NCCL or no probe library is here. */
    public static Path require() {
        Path lib = library();
        assumeTrue(lib != null, "no real libnccl.so.2: run scripts/fetch-nccl.sh (or set NCCL_HOME)");
        assumeTrue(dev.ncclbench.internal.jni.NativeLoader.available(),
                "the probe JNI library was not built (no gcc/g++ when mvn ran)");
        return lib;
    }
}
