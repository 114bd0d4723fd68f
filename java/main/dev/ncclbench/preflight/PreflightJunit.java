package dev.ncclbench.preflight;

import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.gate.GateJunit;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * JUnit XML: a "verdict" test case (fails unless PASS), one per doctor finding (its errors fail), then the gate's
 * suite when the gate ran, so a CI system lists why the node failed as well as which sizes moved.
 */
public final class PreflightJunit {
    private PreflightJunit() {
    }

    public static String render(PreflightReport r) {
        List<Finding> doctor = r.doctor() == null ? List.of() : r.doctor();
        long doctorFailures = doctor.stream().filter(f -> f.severity() == Severity.ERROR).count();
        boolean pass = r.verdict().word().equals("PASS");
        long tests = 1 + doctor.size() + (r.gate() == null ? 0 : GateJunit.tests(r.gate()));
        long failures = (pass ? 0 : 1) + doctorFailures + (r.gate() == null ? 0 : GateJunit.failures(r.gate()));
        StringWriter sw = new StringWriter();
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "ncclbench preflight");
            x.writeAttribute("tests", String.valueOf(tests));
            x.writeAttribute("failures", String.valueOf(failures));
            x.writeCharacters("\n");
            suiteStart(x, "ncclbench preflight" + (r.host() == null ? "" : " " + r.host()), 1 + doctor.size(),
                    (pass ? 0 : 1) + doctorFailures);
            GateJunit.testcase(x, "ncclbench.preflight", "verdict", pass ? null : r.verdict().word().toLowerCase(java.util.Locale.ROOT),
                    r.verdict().line(), String.join("\n", r.verdict().reasons().stream().map(Preflight.Reason::text).toList()));
            for (Finding f : doctor) {
                String type = f.severity() != Severity.ERROR ? null
                        : DoctorRules.book().degrades(List.of(f)) ? "degraded" : "environment";
                GateJunit.testcase(x, "ncclbench.preflight.doctor", f.ruleId(), type, f.title(), f.detail()
                        + (f.evidence().isEmpty() ? "" : "\n" + String.join("\n", f.evidence()))
                        + (f.remedy().isEmpty() ? "" : "\nfix: " + String.join("\n     ", f.remedy())));
            }
            x.writeEndElement();
            x.writeCharacters("\n");
            if (r.gate() != null) {
                GateJunit.suite(x, r.gate());
            }
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write JUnit XML", e);
        }
        return sw.toString();
    }

    private static void suiteStart(XMLStreamWriter x, String name, long tests, long failures) throws XMLStreamException {
        x.writeStartElement("testsuite");
        x.writeAttribute("name", name);
        x.writeAttribute("tests", String.valueOf(tests));
        x.writeAttribute("failures", String.valueOf(failures));
        x.writeAttribute("errors", "0");
        x.writeAttribute("skipped", "0");
        x.writeCharacters("\n");
    }
}
