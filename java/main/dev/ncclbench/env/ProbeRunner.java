package dev.ncclbench.env;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.internal.jni.JavaCppCache;
import dev.ncclbench.internal.jni.NativeLoader;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.output.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the NCCL probe in a child JVM: NCCL reads its environment once per process, and a failed
 * bootstrap stays failed for the life of the process (>= 2.22), so every configuration gets a fresh
 * process. The child is this same program (same java, same class path) running the hidden
 * `probe-child` command, which prints one JSON line; NCCL's INFO log goes to a private file that is
 * parsed here for the bootstrap interface and the WARN lines.
 */
public final class ProbeRunner {
    private static final ObjectMapper JSON = Json.mapper();
    private static final int TIMEOUT_SECONDS = 60;

    private ProbeRunner() {
    }

    /**
     * Probes {@code library} in a child whose environment is exactly {@code host}'s (the command line's: the process's
     * own; a test's or doctor's judged one: that, and none of this JVM's variables).
     */
    public static ProbeResult probe(Path library, Host host) {
        return probe(library, host, List.of());
    }

    /**
     * The same, with the child started through {@code launcher} (e.g. `ip netns exec NS`): the test that proves
     * doctor's prediction against the real NCCL inside network namespaces uses it.
     */
    public static ProbeResult probe(Path library, Host host, List<String> launcher) {
        String lib = library == null ? null : library.toString();
        Path dir = null;
        try {
            dir = Files.createTempDirectory("ncclbench-probe");
            Path log = dir.resolve("nccl-probe.log");
            Path out = dir.resolve("child.out");
            Path err = dir.resolve("child.err");
            List<String> cmd = new ArrayList<>(launcher);
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx64m");
            cmd.add("-XX:TieredStopAtLevel=1");
            cmd.add("-D" + JavaCppCache.PROPERTY + "=" + JavaCppCache.configure());
            String override = System.getProperty(NativeLoader.OVERRIDE_PROPERTY);
            if (override != null) {
                cmd.add("-D" + NativeLoader.OVERRIDE_PROPERTY + "=" + override);
            }
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add("dev.ncclbench.cli.Main");
            cmd.add("probe-child");
            if (lib != null) {
                cmd.add("--lib");
                cmd.add(lib);
            }
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            Map<String, String> env = pb.environment();
            env.clear();
            env.putAll(host.variables());
            // The probe's own log, whatever the user set: it is private and parsed here.
            env.put("NCCL_DEBUG", "INFO");
            env.put("NCCL_DEBUG_SUBSYS", "INIT,BOOTSTRAP,NET");
            env.put("NCCL_DEBUG_FILE", log.toString());
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return failed(lib, "the probe did not finish in " + TIMEOUT_SECONDS + " s (ncclGetUniqueId hung)", log);
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String json = null;
            for (String line : stdout.split("\n")) {
                if (line.startsWith("{")) {
                    json = line;
                }
            }
            if (json == null) {
                String tail = tail(Files.readString(err, StandardCharsets.UTF_8) + stdout);
                return failed(lib, "the probe child exited " + p.exitValue() + " without a result: " + tail, log);
            }
            List<String> lines = Files.isRegularFile(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
            return parse(JSON.readTree(json), lines, log.toString());
        } catch (IOException e) {
            return failed(lib, "cannot run the probe child: " + e.getMessage(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(lib, "interrupted", null);
        } finally {
            deleteQuietly(dir);
        }
    }

    /** Builds the result from the child's JSON line and NCCL's log lines. */
    static ProbeResult parse(JsonNode j, List<String> logLines, String logFile) {
        NcclLogEvidence log = NcclLogReader.readLines(logLines, logFile == null ? "probe" : logFile);
        NcclLogEvidence.Interface boot = log.bootstrap().stream().filter(i -> !i.name().startsWith("oob:"))
                .findFirst().orElse(null);
        String problem = j.path("problem").isTextual() ? j.path("problem").asText() : null;
        return new ProbeResult(j.path("loaded").asBoolean(false), text(j, "library"), text(j, "loadedPath"),
                text(j, "dlError"), j.path("version").asInt(0), j.path("uniqueIdStatus").asInt(-1),
                text(j, "errorString"), text(j, "lastError"), boot == null ? null : boot.name(),
                boot == null ? null : boot.address(), warnings(log), logFile, problem);
    }

    private static String text(JsonNode j, String field) {
        JsonNode n = j.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    private static ProbeResult failed(String lib, String problem, Path log) {
        List<String> lines = List.of();
        try {
            if (log != null && Files.isRegularFile(log)) {
                lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            // no log
        }
        return new ProbeResult(false, lib, null, null, 0, -1, null, null, null, null,
                warnings(NcclLogReader.readLines(lines, "probe")), null, problem);
    }

    /** The messages of NCCL's WARN lines (not the error lines an application prints about NCCL). */
    private static List<String> warnings(NcclLogEvidence log) {
        return log.warnings().stream().filter(w -> !w.ncclFile().isEmpty() || w.pid() >= 0)
                .map(NcclLogEvidence.Warning::message).toList();
    }

    private static String tail(String s) {
        String t = s.strip();
        return t.length() > 600 ? "..." + t.substring(t.length() - 600) : t;
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind
        }
    }
}
