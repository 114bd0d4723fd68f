package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each command's exit codes, for picocli's exit-code list in its --help: the codes are {@link ExitCode}'s, the
 * meanings say what they mean for that command. A command not listed here prints the whole table, as the root does.
 */
final class ExitCodes {
    private ExitCodes() {
    }

    private record Meaning(ExitCode code, String text) {
    }

    private static Meaning m(ExitCode code, String text) {
        return new Meaning(code, text);
    }

    private static final Meaning INTERNAL = m(ExitCode.INTERNAL, ExitCode.INTERNAL.meaning);

    private static final Map<String, List<Meaning>> BY_COMMAND = Map.ofEntries(
            Map.entry("explain", List.of(
                    m(ExitCode.OK, "healthy path for the topology"),
                    INTERNAL,
                    m(ExitCode.USAGE, "usage error, or no path evidence in the input"),
                    m(ExitCode.ENVIRONMENT, "NCCL init failed"),
                    m(ExitCode.RUN_FAILED, "NCCL failed after init"),
                    m(ExitCode.DEGRADED, "degraded path (sockets or host-staged where RDMA is present), or a finding"
                            + " at the --fail-on severity"))),
            Map.entry("doctor", List.of(
                    m(ExitCode.OK, "no finding at the --fail-on level"),
                    INTERNAL,
                    m(ExitCode.USAGE, "bad input"),
                    m(ExitCode.ENVIRONMENT, "findings at the --fail-on level (or --probe-nccl without NCCL)"))),
            Map.entry("probe", List.of(
                    m(ExitCode.OK, "NCCL would bootstrap"),
                    INTERNAL,
                    m(ExitCode.USAGE, ExitCode.USAGE.meaning),
                    m(ExitCode.ENVIRONMENT, "NCCL would not bootstrap, or NCCL is missing"))),
            Map.entry("env", List.of(
                    m(ExitCode.OK, "everything needed was found"),
                    INTERNAL,
                    m(ExitCode.USAGE, ExitCode.USAGE.meaning),
                    m(ExitCode.ENVIRONMENT, "something needed is missing (the list says what)"))),
            Map.entry("gate", List.of(
                    m(ExitCode.OK, "pass"),
                    INTERNAL,
                    m(ExitCode.USAGE, "usage (bad file, corrupt baseline, no size in both: NOTHING_TO_COMPARE)"),
                    m(ExitCode.DEGRADED, "regression or degraded path"),
                    m(ExitCode.NO_BASELINE, "NO_BASELINE: no baseline was measured as the run was (--curve-only:"
                            + " the curve check alone)"))),
            Map.entry("report", List.of(
                    m(ExitCode.OK, "written"),
                    INTERNAL,
                    m(ExitCode.USAGE, "usage (bad file, no output asked)"))),
            Map.entry("fleet", List.of(
                    m(ExitCode.OK, "every node and link healthy"),
                    INTERNAL,
                    m(ExitCode.USAGE, "usage (bad flag, unwritable output)"),
                    m(ExitCode.ENVIRONMENT, "rank 0 cannot listen for the search"),
                    m(ExitCode.RUN_FAILED, "a rank lost rank 0"),
                    m(ExitCode.TIMEOUT, "a rank could not join rank 0 within --round-timeout, or its watchdog (-T)"
                            + " ended it in a call blocked inside NCCL"),
                    m(ExitCode.DEGRADED, "a node is slow or unreachable, or a link is bad"))),
            Map.entry("preflight", List.of(
                    m(ExitCode.OK, "PASS"),
                    INTERNAL,
                    m(ExitCode.USAGE, ExitCode.USAGE.meaning),
                    m(ExitCode.ENVIRONMENT, "environment not ready (doctor error)"),
                    m(ExitCode.RUN_FAILED, "run failed (FAIL)"),
                    m(ExitCode.TIMEOUT, "timeout / hang (FAIL)"),
                    m(ExitCode.DEGRADED, "DEGRADED (doctor, regression or degraded path)"))));

    /** The list for a command ("sweep", "baseline record"), keyed by the code as --help prints it. */
    static Map<String, String> forCommand(String qualifiedName) {
        Map<String, String> list = new LinkedHashMap<>();
        List<Meaning> own = BY_COMMAND.get(qualifiedName);
        if (own == null) {
            for (ExitCode e : ExitCode.values()) {
                list.put(key(e), e.meaning);
            }
        } else {
            own.forEach(x -> list.put(key(x.code()), x.text()));
        }
        return list;
    }

    private static String key(ExitCode e) {
        return String.format("%3d", e.code);
    }
}
