package dev.ncclbench.output;

import dev.ncclbench.output.JUnitXml.TestCase;
import dev.ncclbench.output.JUnitXml.TestSuite;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JUnitXmlTest {
    @Test
    void aParserReadsTheSuitesCasesAndFailuresBack() throws Exception {
        String xml = JUnitXml.render("ncclbench test", List.of(
                new TestSuite("first <&> \"suite\"", "2026-12-02T00:00:00Z", List.of(
                        TestCase.passed("c.pass", "all_reduce 8M", "ok", "detail"),
                        TestCase.failed("c.fail", "node-1 & 'two'", "regression", "busbw < 90% \"of\" baseline",
                                "line one\nline <two>"))),
                new TestSuite("second", null, List.of(TestCase.skipped("c.skip", "a - b", "undecided: no pair")))));
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        Element root = d.getDocumentElement();
        assertEquals("testsuites", root.getTagName());
        assertEquals("3", root.getAttribute("tests"));
        assertEquals("1", root.getAttribute("failures"));
        NodeList suites = d.getElementsByTagName("testsuite");
        assertEquals(2, suites.getLength());
        Element first = (Element) suites.item(0);
        assertEquals("first <&> \"suite\"", first.getAttribute("name"));
        assertEquals("2", first.getAttribute("tests"));
        assertEquals("1", first.getAttribute("failures"));
        assertEquals("0", first.getAttribute("skipped"));
        assertEquals("2026-12-02T00:00:00Z", first.getAttribute("timestamp"));
        Element second = (Element) suites.item(1);
        assertEquals("1", second.getAttribute("skipped"));
        assertEquals(false, second.hasAttribute("timestamp"));

        NodeList cases = d.getElementsByTagName("testcase");
        assertEquals(3, cases.getLength());
        assertEquals("ok\ndetail", ((Element) cases.item(0)).getElementsByTagName("system-out").item(0).getTextContent());
        Element failed = (Element) cases.item(1);
        assertEquals("node-1 & 'two'", failed.getAttribute("name"));
        Element failure = (Element) failed.getElementsByTagName("failure").item(0);
        assertEquals("regression", failure.getAttribute("type"));
        assertEquals("busbw < 90% \"of\" baseline", failure.getAttribute("message"));
        assertEquals("line one\nline <two>", failure.getTextContent());
        Element skipped = (Element) ((Element) cases.item(2)).getElementsByTagName("skipped").item(0);
        assertEquals("undecided: no pair", skipped.getAttribute("message"));
    }
}
