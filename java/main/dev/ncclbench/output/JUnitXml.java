package dev.ncclbench.output;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * JUnit XML, the report every CI system lists: a model of suites and test cases, written with StAX so that no
 * text is escaped by hand. Gate, preflight and fleet build the model; only this class writes the XML.
 */
public final class JUnitXml {
    private JUnitXml() {
    }

    /** One test case. A passing case's message and text go to system-out; a failure or skip carries them. */
    public record TestCase(String classname, String name, Outcome outcome, String type, String message, String text) {
        public enum Outcome { PASSED, FAILED, SKIPPED }

        /** {@code text} may be empty: then system-out holds the message alone. */
        public static TestCase passed(String classname, String name, String message, String text) {
            return new TestCase(classname, name, Outcome.PASSED, null, message, text);
        }

        public static TestCase failed(String classname, String name, String type, String message, String text) {
            return new TestCase(classname, name, Outcome.FAILED, type, message, text);
        }

        public static TestCase skipped(String classname, String name, String message) {
            return new TestCase(classname, name, Outcome.SKIPPED, null, message, "");
        }
    }

    /** One suite; {@code timestamp} (ISO-8601) may be null. */
    public record TestSuite(String name, String timestamp, List<TestCase> cases) {
        public long count(TestCase.Outcome outcome) {
            return cases.stream().filter(c -> c.outcome() == outcome).count();
        }
    }

    /** The document: a testsuites element named {@code name} holding {@code suites}, with the totals. */
    public static String render(String name, List<TestSuite> suites) {
        StringWriter sw = new StringWriter();
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", name);
            x.writeAttribute("tests", String.valueOf(suites.stream().mapToLong(s -> s.cases().size()).sum()));
            x.writeAttribute("failures", String.valueOf(suites.stream().mapToLong(s -> s.count(TestCase.Outcome.FAILED)).sum()));
            x.writeCharacters("\n");
            for (TestSuite s : suites) {
                suite(x, s);
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

    private static void suite(XMLStreamWriter x, TestSuite s) throws XMLStreamException {
        x.writeStartElement("testsuite");
        x.writeAttribute("name", s.name());
        x.writeAttribute("tests", String.valueOf(s.cases().size()));
        x.writeAttribute("failures", String.valueOf(s.count(TestCase.Outcome.FAILED)));
        x.writeAttribute("errors", "0");
        x.writeAttribute("skipped", String.valueOf(s.count(TestCase.Outcome.SKIPPED)));
        if (s.timestamp() != null) {
            x.writeAttribute("timestamp", s.timestamp());
        }
        x.writeCharacters("\n");
        for (TestCase c : s.cases()) {
            testcase(x, c);
        }
        x.writeEndElement();
        x.writeCharacters("\n");
    }

    private static void testcase(XMLStreamWriter x, TestCase c) throws XMLStreamException {
        x.writeStartElement("testcase");
        x.writeAttribute("classname", c.classname());
        x.writeAttribute("name", c.name());
        x.writeAttribute("time", "0");
        switch (c.outcome()) {
            case FAILED -> {
                x.writeStartElement("failure");
                x.writeAttribute("type", c.type());
                x.writeAttribute("message", c.message());
                x.writeCharacters(c.text());
            }
            case SKIPPED -> {
                x.writeStartElement("skipped");
                x.writeAttribute("message", c.message());
            }
            case PASSED -> {
                x.writeStartElement("system-out");
                x.writeCharacters(c.message() + (c.text().isEmpty() ? "" : "\n" + c.text()));
            }
        }
        x.writeEndElement();
        x.writeEndElement();
        x.writeCharacters("\n");
    }
}
