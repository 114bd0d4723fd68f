package dev.ncclbench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The install folder as scripts/ncclbench's checkout and the bundle lay it out, whatever the working directory. */
class InstallDirTest {
    @Test
    void aCheckoutIsTheFolderAboveTarget(@TempDir Path dir) {
        Path checkout = dir.resolve("ncclbench");
        for (String code : new String[] {"target/ncclbench.jar", "target/classes"}) {
            assertEquals(Optional.of(checkout), InstallDir.checkout(null, checkout.resolve(code)), code);
            assertEquals(Optional.of(checkout), InstallDir.home(null, checkout.resolve(code)), code);
        }
        assertEquals(Optional.of(Path.of("/elsewhere")), InstallDir.home("/elsewhere", checkout.resolve("target/classes")),
                "-Dncclbench.basedir wins");
    }

    @Test
    void aBundleIsTheFolderAboveLibBesideItsLauncher(@TempDir Path dir) throws IOException {
        Path bundle = dir.resolve("ncclbench-1.0");
        Path jar = bundle.resolve("lib/ncclbench.jar");
        assertEquals(Optional.empty(), InstallDir.home(null, jar), "a lib/ without bin/ncclbench is no bundle");
        Files.createDirectories(bundle.resolve("bin"));
        Files.writeString(bundle.resolve("bin/ncclbench"), "#!/bin/sh\n");
        assertEquals(Optional.of(bundle), InstallDir.home(null, jar));
        assertEquals(Optional.empty(), InstallDir.checkout(null, jar), "deps/ is a checkout's only");
        assertEquals(Optional.empty(), InstallDir.home(null, dir.resolve("ncclbench.jar")), "a jar on its own");
        assertEquals(Optional.empty(), InstallDir.home(null, null), "no code source");
    }
}
