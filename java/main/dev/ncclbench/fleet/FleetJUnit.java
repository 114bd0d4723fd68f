package dev.ncclbench.fleet;

import dev.ncclbench.output.JUnitXml;
import dev.ncclbench.output.JUnitXml.TestCase;
import dev.ncclbench.output.JUnitXml.TestSuite;

import java.util.ArrayList;
import java.util.List;

/**
 * JUnit XML for CI dashboards: one test case per node, per measured link and (with --rails) per node and rail; bad ones
 * fail, undecided and not judged ones skip.
 */
final class FleetJUnit {
    private FleetJUnit() {
    }

    static String render(FleetDocument doc) {
        Verdicts v = doc.verdicts();
        List<TestCase> cases = new ArrayList<>();
        for (NodeVerdict n : v.nodes()) {
            cases.add(testcase("ncclbench.fleet.node", doc.hosts().get(n.rank()), n.bad(),
                    n.status() == NodeVerdict.Status.UNDECIDED, n.status().label, n.reason()));
        }
        for (LinkVerdict l : v.links()) {
            LinkVerdict.Status s = l.status();
            cases.add(testcase("ncclbench.fleet.link", doc.hosts().get(l.a()) + " - " + doc.hosts().get(l.b()),
                    s == LinkVerdict.Status.BAD, s == LinkVerdict.Status.UNDECIDED || s == LinkVerdict.Status.NOT_JUDGED,
                    s.label, l.reason()));
        }
        if (doc.rails() != null) {
            for (RailVerdict r : doc.rails().verdicts()) {
                cases.add(testcase("ncclbench.fleet.rail", doc.hosts().get(r.rank()) + " " + r.name(), r.bad(),
                        r.status() == RailVerdict.Status.UNDECIDED || r.status() == RailVerdict.Status.NOT_JUDGED,
                        r.status().label, r.reason()));
            }
        }
        return JUnitXml.render("ncclbench fleet", List.of(new TestSuite("ncclbench fleet", null, cases)));
    }

    /** A bad node or link fails with its verdict as the type; one the search could not decide is skipped. */
    private static TestCase testcase(String classname, String name, boolean bad, boolean undecided, String verdict,
                                     String reason) {
        String message = verdict + ": " + reason;
        return bad ? TestCase.failed(classname, name, verdict, message, "")
                : undecided ? TestCase.skipped(classname, name, message)
                : TestCase.passed(classname, name, message, "");
    }
}
