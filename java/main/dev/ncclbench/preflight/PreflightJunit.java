package dev.ncclbench.preflight;

import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.gate.GateJunit;
import dev.ncclbench.output.JUnitXml;
import dev.ncclbench.output.JUnitXml.TestCase;
import dev.ncclbench.output.JUnitXml.TestSuite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * JUnit XML: a "verdict" test case (fails unless PASS), one per doctor finding (its errors fail), then the gate's
 * suite when the gate ran, so a CI system lists why the node failed as well as which sizes moved.
 */
public final class PreflightJunit {
    private PreflightJunit() {
    }

    public static String render(PreflightReport r) {
        List<Finding> doctor = r.doctor() == null ? List.of() : r.doctor();
        String reasons = String.join("\n", r.verdict().reasons().stream().map(Preflight.Reason::text).toList());
        List<TestCase> cases = new ArrayList<>();
        cases.add(r.verdict().word().equals("PASS") ? TestCase.passed("ncclbench.preflight", "verdict", r.verdict().line(), reasons)
                : TestCase.failed("ncclbench.preflight", "verdict", r.verdict().word().toLowerCase(Locale.ROOT),
                        r.verdict().line(), reasons));
        for (Finding f : doctor) {
            String text = f.detail() + (f.evidence().isEmpty() ? "" : "\n" + String.join("\n", f.evidence()))
                    + (f.remedy().isEmpty() ? "" : "\nfix: " + String.join("\n     ", f.remedy()));
            cases.add(f.severity() != Severity.ERROR
                    ? TestCase.passed("ncclbench.preflight.doctor", f.ruleId(), f.title(), text)
                    : TestCase.failed("ncclbench.preflight.doctor", f.ruleId(),
                            DoctorRules.book().degrades(List.of(f)) ? "degraded" : "environment", f.title(), text));
        }
        List<TestSuite> suites = new ArrayList<>();
        suites.add(new TestSuite("ncclbench preflight" + (r.host() == null ? "" : " " + r.host()), null, cases));
        if (r.gate() != null) {
            suites.add(GateJunit.suite(r.gate()));
        }
        return JUnitXml.render("ncclbench preflight", suites);
    }
}
