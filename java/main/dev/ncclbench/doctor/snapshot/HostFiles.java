package dev.ncclbench.doctor.snapshot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files a collector reads, under a root: "/" for this host, or a folder that scripts/capture-host.sh filled.
 * A capture stores a symlink's target in NAME.link (tar of /sys cannot keep them), so both are read here, once.
 * Reading records what it could not read: a permission problem is evidence, not an empty answer.
 */
public final class HostFiles {
    /** Extra outputs a capture carries (ip -j addr, lspci -vvv, the environment) under the root. */
    public static final String EXTRAS = "ncclbench";

    /** Said where root was refused too: telling root to run as root was no help. */
    static final String ROOT_REFUSED = "root was refused too (a container without the capability, or a security module):"
            + " run doctor on the host itself, or capture it there with scripts/capture-host.sh";

    private final Path root;
    private final boolean live;
    /** This process runs as root (a live host only): a refusal is then no matter of running as root. */
    private final boolean asRoot;
    private final List<Problem> problems = new ArrayList<>();

    HostFiles(Path root, boolean live, boolean asRoot) {
        this.root = root;
        this.live = live;
        this.asRoot = asRoot;
    }

    public static HostFiles live() {
        return new HostFiles(Path.of("/"), true, effectiveUid() == 0);
    }

    public static HostFiles capture(Path root) {
        return new HostFiles(root.toAbsolutePath().normalize(), false, false);
    }

    /** The effective uid of this process, from /proc/self/status ("Uid: real effective saved fs"); -1 unknown. */
    static long effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).strip().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a /proc without it: unknown
        }
        return -1;
    }

    public boolean isLive() {
        return live;
    }

    public Path root() {
        return root;
    }

    List<Problem> problems() {
        return problems;
    }

    void problem(String collector, String what, String detail) {
        problem(collector, what, detail, live ? null : "re-capture the host with scripts/capture-host.sh");
    }

    void problem(String collector, String what, String detail, String remedy) {
        problems.add(new Problem(collector, what, detail, remedy));
    }

    /** {@code what} could not be read for want of permission: the remedy depends on who was refused. */
    void denied(String collector, String what, String detail) {
        problem(collector, what, detail, !live ? "re-capture the host as root with scripts/capture-host.sh"
                : asRoot ? ROOT_REFUSED : "run doctor as root (sudo): this user may not read it");
    }

    /** The path of an absolute host path ("/sys/class/net") under the root. */
    public Path at(String hostPath) {
        return root.resolve(hostPath.startsWith("/") ? hostPath.substring(1) : hostPath);
    }

    public boolean exists(String hostPath) {
        return Files.exists(at(hostPath));
    }

    public boolean isDirectory(String hostPath) {
        return Files.isDirectory(at(hostPath));
    }

    /** The file's text, trimmed; empty when it does not exist or cannot be read (permission: a problem). */
    public Optional<String> read(String collector, String hostPath) {
        Path p = at(hostPath);
        try {
            return Optional.of(Files.readString(p, StandardCharsets.UTF_8).strip());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (AccessDeniedException e) {
            denied(collector, hostPath, "permission denied");
            return Optional.empty();
        } catch (IOException | java.io.UncheckedIOException e) {
            // sysfs answers EINVAL for attributes a driver does not implement (speed of a down link): no value
            return Optional.empty();
        }
    }

    /** The names in a folder, sorted; empty when it does not exist. */
    public List<String> list(String collector, String hostPath) {
        List<String> out = new ArrayList<>();
        Path p = at(hostPath);
        if (!Files.isDirectory(p)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
            for (Path c : ds) {
                String name = c.getFileName().toString();
                if (!name.endsWith(".link")) {
                    out.add(name);
                }
            }
        } catch (AccessDeniedException e) {
            denied(collector, hostPath, "permission denied");
        } catch (IOException e) {
            problem(collector, hostPath, e.getMessage());
        }
        out.sort(null);
        return out;
    }

    /**
     * The names in a folder whose entries may be symlinks (/sys/bus/pci/devices): the links themselves on a live host
     * or a copied tree, NAME.link in a capture (the suffix dropped); sorted, each name once.
     */
    public List<String> entries(String collector, String hostPath) {
        java.util.TreeSet<String> out = new java.util.TreeSet<>();
        Path p = at(hostPath);
        if (!Files.isDirectory(p)) {
            return List.of();
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
            for (Path c : ds) {
                String name = c.getFileName().toString();
                out.add(name.endsWith(".link") ? name.substring(0, name.length() - 5) : name);
            }
        } catch (AccessDeniedException e) {
            problem(collector, hostPath, "permission denied");
        } catch (IOException e) {
            problem(collector, hostPath, e.getMessage());
        }
        return List.copyOf(out);
    }

    /**
     * Where a symlink points, as a host path ("/sys/devices/pci0000:00/..."): the link itself on a live host, NAME.link
     * in a capture. Empty when it is neither.
     */
    public Optional<String> linkTarget(String hostPath) {
        Path p = at(hostPath);
        try {
            if (Files.isSymbolicLink(p)) {
                Path target = Files.readSymbolicLink(p);
                // the parent may itself be a link (/sys/class/net/eth0 -> ../../devices/...): resolve it first
                Path resolved = p.getParent().toRealPath().resolve(target).normalize();
                String rel = root.toRealPath().relativize(resolved).toString();
                return Optional.of("/" + rel);
            }
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        Path file = p.resolveSibling(p.getFileName() + ".link");
        if (Files.isRegularFile(file)) {
            try {
                String t = Files.readString(file, StandardCharsets.UTF_8).strip();
                return t.isEmpty() ? Optional.empty() : Optional.of(t);
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The last path element of a link target ("mlx5_core" for .../drivers/mlx5_core). */
    public Optional<String> linkName(String hostPath) {
        return linkTarget(hostPath).map(t -> t.substring(t.lastIndexOf('/') + 1));
    }
}
