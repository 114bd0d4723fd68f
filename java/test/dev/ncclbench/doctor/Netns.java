package dev.ncclbench.doctor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Real network namespaces for tests (root only), named doctor-*, deleted by {@link #close()}. */
final class Netns implements AutoCloseable {
    final String name;

    private Netns(String name) {
        this.name = name;
    }

    /** Skips the test, with the reason, where namespaces cannot be made. */
    static void assumeAvailable() {
        assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root (CI runs as root)");
        assumeTrue(run(List.of("ip", "-V")).ok(), "iproute2 (ip) is not installed");
    }

    static Netns create(String suffix) {
        String n = "doctor-" + suffix + "-" + ProcessHandle.current().pid() % 100000;
        run(List.of("ip", "netns", "del", n));
        Result r = run(List.of("ip", "netns", "add", n));
        if (!r.ok()) {
            throw new IllegalStateException("ip netns add " + n + ": " + r.output());
        }
        Netns ns = new Netns(n);
        ns.ip("link", "set", "lo", "up");
        return ns;
    }

    /** `ip -n NS ARGS...`, which must succeed. */
    void ip(String... args) {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", name));
        cmd.addAll(List.of(args));
        Result r = run(cmd);
        if (!r.ok()) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + r.output());
        }
    }

    /** A standalone interface (ifb: this kernel has no dummy) with an IPv4 address, up or down, in call order = kernel order. */
    void dummy(String ifname, String cidr, boolean up) {
        ip("link", "add", ifname, "type", "ifb");
        ip("addr", "add", cidr, "dev", ifname);
        if (up) {
            ip("link", "set", ifname, "up");
        }
    }

    /** The prefix that runs a command inside the namespace. */
    List<String> exec() {
        return List.of("ip", "netns", "exec", name);
    }

    @Override
    public void close() {
        run(List.of("ip", "netns", "del", name));
    }

    record Result(int code, String output) {
        boolean ok() {
            return code == 0;
        }
    }

    static Result run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(124, out);
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            return new Result(127, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(130, "interrupted");
        }
    }
}
