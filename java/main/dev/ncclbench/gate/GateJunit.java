package dev.ncclbench.gate;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** JUnit XML: one test case per collective and size (and one per curve-check error), so CI systems list them. */
public final class GateJunit {
    private GateJunit() {
    }

    public static String render(GateReport r) {
        StringWriter sw = new StringWriter();
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "ncclbench gate");
            x.writeAttribute("tests", String.valueOf(tests(r)));
            x.writeAttribute("failures", String.valueOf(failures(r)));
            x.writeCharacters("\n");
            suite(x, r);
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write JUnit XML", e);
        }
        return sw.toString();
    }

    /** Test cases in the gate's suite: one per collective and size in the run, one per curve-check error. */
    public static int tests(GateReport r) {
        return cases(r).size() + curveErrors(r).size();
    }

    public static long failures(GateReport r) {
        return cases(r).stream().filter(s -> s.status().fails()).count() + curveErrors(r).size();
    }

    /** The gate's testsuite element, for a document that holds other suites too (preflight's). */
    public static void suite(XMLStreamWriter x, GateReport r) throws XMLStreamException {
        List<Finding> errors = curveErrors(r);
        List<SizeResult> cases = cases(r);
        x.writeStartElement("testsuite");
        x.writeAttribute("name", "ncclbench gate " + (r.baselineName() == null ? "(curve check)" : r.baselineName()));
        x.writeAttribute("tests", String.valueOf(tests(r)));
        x.writeAttribute("failures", String.valueOf(failures(r)));
        x.writeAttribute("errors", "0");
        x.writeAttribute("skipped", "0");
        x.writeAttribute("timestamp", Instant.ofEpochSecond(r.timestamp()).toString());
        x.writeCharacters("\n");
        String changed = String.join("\n", r.changes().stream().map(Fingerprint.Change::text).toList());
        for (SizeResult s : cases) {
            String detail = detail(s);
            if (s.status().fails()) {
                testcase(x, "ncclbench.gate." + s.key().collective(), s.key().label(),
                        s.status().name().toLowerCase(Locale.ROOT), s.key().label() + ": " + detail,
                        detail + (changed.isEmpty() ? "\nnothing changed in the fingerprint"
                                : "\nwhat changed since the baseline:\n" + changed));
            } else {
                testcase(x, "ncclbench.gate." + s.key().collective(), s.key().label(), null, detail, "");
            }
        }
        for (Finding f : errors) {
            testcase(x, "ncclbench.gate.curve", f.ruleId(), "degraded", f.title(),
                    f.detail() + "\n" + String.join("\n", f.evidence()));
        }
        x.writeEndElement();
        x.writeCharacters("\n");
    }

    /**
     * One test case; also the preflight's.
     *
     * @param failureType null for a passing case: then {@code message}, and {@code text} if any, go to system-out
     */
    public static void testcase(XMLStreamWriter x, String classname, String name, String failureType, String message,
                                String text) throws XMLStreamException {
        x.writeStartElement("testcase");
        x.writeAttribute("classname", classname);
        x.writeAttribute("name", name);
        x.writeAttribute("time", "0");
        if (failureType != null) {
            x.writeStartElement("failure");
            x.writeAttribute("type", failureType);
            x.writeAttribute("message", message);
            x.writeCharacters(text);
        } else {
            x.writeStartElement("system-out");
            x.writeCharacters(message + (text.isEmpty() ? "" : "\n" + text));
        }
        x.writeEndElement();
        x.writeEndElement();
        x.writeCharacters("\n");
    }

    private static List<Finding> curveErrors(GateReport r) {
        return r.curve().stream().filter(f -> f.severity() == Severity.ERROR).toList();
    }

    private static List<SizeResult> cases(GateReport r) {
        return r.sizes().stream().filter(s -> s.status() != SizeResult.Status.MISSING).toList();
    }

    private static String detail(SizeResult s) {
        Comparison c = s.comparison();
        String values = s.metric() + " " + GateText.value(s, s.baselineValue()) + " -> " + GateText.value(s, s.runValue());
        if (c == null) {
            return s.status().label + ": " + values;
        }
        return String.format(Locale.ROOT, "%s: %s (%s), noise ±%s, tolerance %s, p %s, ratio CI [%.3f, %.3f]%s",
                s.status().label, values, Double.isFinite(s.change()) ? GateText.signedPct(s.change()) : "-",
                GateOptions.pct(c.noise()), GateOptions.pct(s.tolerance()), GateText.p(c.pSlower()), c.ciLow(),
                c.ciHigh(), s.basePath().equals(s.runPath()) || s.runPath().isEmpty() ? ""
                        : "; path " + s.basePath() + " -> " + s.runPath());
    }
}
