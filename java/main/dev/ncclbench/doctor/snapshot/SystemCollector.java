package dev.ncclbench.doctor.snapshot;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Kernel, limits, capabilities, /dev/shm, container signs, NCCL's environment and configuration files. */
final class SystemCollector {
    private static final long CAP_IPC_LOCK = 14;

    private SystemCollector() {
    }

    static String kernel(HostFiles files) {
        return files.read("kernel", "/proc/sys/kernel/osrelease").orElseGet(() -> {
            files.problem("kernel", "/proc/sys/kernel/osrelease", "unreadable: the kernel version (DMA-BUF needs 5.12) is unknown");
            return null;
        });
    }

    static String hostname(HostFiles files) {
        return files.read("hostname", "/proc/sys/kernel/hostname").or(() -> files.read("hostname", "/etc/hostname"))
                .orElse("unknown");
    }

    /** RLIMIT_MEMLOCK's soft limit from /proc/self/limits: -1 unlimited, null unknown. */
    static Long memlock(HostFiles files) {
        Optional<String> limits = files.read("limits", "/proc/self/limits");
        for (String line : limits.orElse("").split("\n")) {
            if (line.startsWith("Max locked memory")) {
                String[] f = line.substring("Max locked memory".length()).strip().split("\\s+");
                if (f.length > 0) {
                    if (f[0].equals("unlimited")) {
                        return -1L;
                    }
                    try {
                        return Long.parseLong(f[0]);
                    } catch (NumberFormatException e) {
                        break;
                    }
                }
            }
        }
        files.problem("limits", "/proc/self/limits", "no 'Max locked memory' line: the memlock limit is unknown");
        return null;
    }

    /** Whether CAP_IPC_LOCK is in CapEff of /proc/self/status; null unknown. */
    static Boolean capIpcLock(HostFiles files) {
        for (String line : files.read("limits", "/proc/self/status").orElse("").split("\n")) {
            if (line.startsWith("CapEff:")) {
                try {
                    long caps = Long.parseUnsignedLong(line.substring(7).strip(), 16);
                    return (caps >>> CAP_IPC_LOCK & 1) == 1;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** /dev/shm's size: a capture's df figure, else the size= of its tmpfs mount, else the live file store. */
    static Long shm(HostFiles files) {
        Optional<String> captured = files.read("shm", "/" + HostFiles.EXTRAS + "/dev-shm-bytes");
        if (captured.isPresent()) {
            try {
                return Long.parseLong(captured.get().strip());
            } catch (NumberFormatException e) {
                files.problem("shm", HostFiles.EXTRAS + "/dev-shm-bytes", "not a number: '" + captured.get() + "'");
            }
        }
        for (String line : files.read("shm", "/proc/mounts").orElse("").split("\n")) {
            String[] f = line.split("\\s+");
            if (f.length > 3 && f[1].equals("/dev/shm")) {
                for (String opt : f[3].split(",")) {
                    if (opt.startsWith("size=")) {
                        return sizeOption(opt.substring(5));
                    }
                }
            }
        }
        if (files.isLive() && Files.isDirectory(Path.of("/dev/shm"))) {
            try {
                FileStore fs = Files.getFileStore(Path.of("/dev/shm"));
                return fs.getTotalSpace();
            } catch (IOException e) {
                files.problem("shm", "/dev/shm", "cannot read its size: " + e.getMessage());
                return null;
            }
        }
        files.problem("shm", "/dev/shm", "its size is not in the capture (no dev-shm-bytes, no size= in /proc/mounts)");
        return null;
    }

    /** "65536k" -> 67108864. */
    static Long sizeOption(String s) {
        long mult = 1;
        char last = Character.toLowerCase(s.charAt(s.length() - 1));
        String num = s;
        if ("kmg".indexOf(last) >= 0) {
            mult = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
            num = s.substring(0, s.length() - 1);
        }
        try {
            return Long.parseLong(num) * mult;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static Container container(HostFiles files, Map<String, String> rawEnv) {
        List<String> signs = new ArrayList<>();
        if (files.exists("/.dockerenv")) {
            signs.add("/.dockerenv exists");
        }
        if (files.exists("/run/.containerenv")) {
            signs.add("/run/.containerenv exists (podman)");
        }
        for (String f : List.of("/proc/1/cgroup", "/proc/self/cgroup")) {
            String text = files.read("container", f).orElse("");
            for (String word : List.of("kubepods", "docker", "containerd", "libpod", "lxc")) {
                if (text.contains(word)) {
                    signs.add(f + " mentions " + word);
                    break;
                }
            }
        }
        if (rawEnv.containsKey("KUBERNETES_SERVICE_HOST")) {
            signs.add("KUBERNETES_SERVICE_HOST is set (a Kubernetes pod)");
        }
        return new Container(!signs.isEmpty(), signs);
    }

    /** The environment to judge: the given one live, the capture's saved NCCL_/HOME/KUBERNETES lines otherwise. */
    static Map<String, String> rawEnv(HostFiles files, Map<String, String> liveEnv) {
        if (files.isLive()) {
            return liveEnv;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : files.read("environment", "/" + HostFiles.EXTRAS + "/env").orElse("").split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return out;
    }

    static Map<String, String> ncclEnv(Map<String, String> raw) {
        Map<String, String> out = new LinkedHashMap<>();
        raw.entrySet().stream().filter(e -> e.getKey().startsWith("NCCL_")).sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** NCCL's files in its order: NCCL_CONF_FILE or ~/.nccl.conf, then /etc/nccl.conf. Only those that exist. */
    static List<ConfFile> confFiles(HostFiles files, Map<String, String> raw) {
        List<String> paths = new ArrayList<>();
        String user = raw.get("NCCL_CONF_FILE");
        if (user != null && !user.isEmpty()) {
            paths.add(user);
        } else if (raw.get("HOME") != null) {
            paths.add(raw.get("HOME") + "/.nccl.conf");
        }
        paths.add("/etc/nccl.conf");
        List<ConfFile> out = new ArrayList<>();
        for (String p : paths) {
            Optional<String> text = files.read("nccl.conf", p);
            if (text.isEmpty()) {
                continue;
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : text.get().split("\n")) {
                if (line.startsWith("#")) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            out.add(new ConfFile(p, values));
        }
        return out;
    }
}
