package dev.ncclbench.doctor;

import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The rail fixtures (java/test-resources/doctor/rails/NAME.tar.gz, sources in its README) unpacked with the real tar
 * under target/rail-trees, once per tarball: sysfs trees with the kernel's symlinks, loops included.
 */
final class RailTrees {
    static final Path TARBALLS = HostFixturesTest.HOSTS.getParent().resolve("rails");
    private static final Path UNPACKED = Path.of(System.getProperty("ncclbench.basedir", "."), "target", "rail-trees");

    private RailTrees() {
    }

    /** The unpacked tree of this fixture ("h100-port-2x"). */
    static synchronized Path tree(String name) {
        Path tarball = TARBALLS.resolve(name + ".tar.gz");
        Path dir = UNPACKED.resolve(name);
        try {
            if (Files.isDirectory(dir) && Files.getLastModifiedTime(dir.resolve(".unpacked")).compareTo(
                    Files.getLastModifiedTime(tarball)) >= 0) {
                return dir;
            }
        } catch (IOException e) {
            // not unpacked yet
        }
        try {
            Files.createDirectories(UNPACKED);
            Path tmp = Files.createTempDirectory(UNPACKED, name + ".");
            Process p = new ProcessBuilder("tar", "-C", tmp.toString(), "-xzf", tarball.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new IllegalStateException("tar -xzf " + tarball + ": " + out);
            }
            Files.writeString(tmp.resolve(".unpacked"), "");
            if (Files.exists(dir)) {
                Process rm = new ProcessBuilder("rm", "-rf", dir.toString()).start();
                rm.waitFor();
            }
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            return dir;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static HostSnapshot snapshot(String name) {
        return HostCollector.capture(tree(name));
    }
}
