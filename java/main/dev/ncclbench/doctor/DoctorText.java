package dev.ncclbench.doctor;

import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;

import java.io.PrintWriter;
import java.util.List;

/** The terminal view: findings by severity (colour only when asked), then the interfaces NCCL will use. */
public final class DoctorText {
    private static final String RESET = "\u001b[0m";

    private DoctorText() {
    }

    public static void print(DoctorReport r, PrintWriter out, boolean colour) {
        out.println("doctor: " + r.host() + " (" + r.snapshot().source() + ")");
        if (r.findings().isEmpty()) {
            out.println("  no findings");
        }
        for (Finding f : r.findings()) {
            out.println(paint(String.format("  %-7s %-24s", label(f.severity()), f.ruleId()), f.severity(), colour) + " " + f.title());
            if (f.severity() != Severity.INFO) {
                for (String e : f.evidence()) {
                    out.println("            evidence: " + e);
                }
                for (String m : f.remedy()) {
                    out.println("            fix:      " + m);
                }
            }
        }
        out.println();
        RailText.lines(r.rails()).forEach(out::println);
        out.println();
        Prediction.Bootstrap b = r.bootstrap();
        out.println("bootstrap:          " + (b.iface() == null ? "none" : b.iface() + " " + b.address()) + "  (" + b.why() + ")");
        List<String> sock = r.socketInterfaces().stream().map(e -> e.iface() + " " + e.address()).toList();
        out.println("NET/Socket:         " + (sock.isEmpty() ? "none" : String.join(", ", sock)));
        out.println("NCCL rules:         " + r.ncclRules());
        if (r.probe() != null) {
            DoctorReport.Probe p = r.probe();
            out.println("real NCCL:          " + (p.problem() != null ? "not run (" + p.problem() + ")"
                    : (p.iface() == null ? "no interface" : p.iface() + " " + p.address()) + (p.agrees() ? " (agrees)" : " (DISAGREES)")
                    + "  " + p.version() + " " + p.library()));
        }
        out.printf("%d error, %d warning, %d info%n", r.count(Severity.ERROR), r.count(Severity.WARNING), r.count(Severity.INFO));
        out.flush();
    }

    private static String label(Severity s) {
        return switch (s) {
            case ERROR -> "ERROR";
            case WARNING -> "WARN";
            case INFO -> "info";
        };
    }

    private static String paint(String text, Severity s, boolean colour) {
        if (!colour) {
            return text;
        }
        String code = switch (s) {
            case ERROR -> "\u001b[31;1m";
            case WARNING -> "\u001b[33m";
            case INFO -> "\u001b[2m";
        };
        return code + text + RESET;
    }
}
