package dev.ncclbench.fleet;

/** JUnit XML for CI dashboards: one test case per node and per measured link; bad ones fail, undecided ones skip. */
final class FleetJUnit {
    private FleetJUnit() {
    }

    static String render(FleetDocument doc) {
        Verdicts v = doc.verdicts();
        StringBuilder cases = new StringBuilder();
        int failures = 0;
        int skipped = 0;
        for (NodeVerdict n : v.nodes()) {
            cases.append("  <testcase classname=\"ncclbench.fleet.node\" name=\"").append(Xml.esc(doc.hosts().get(n.rank()))).append("\"");
            if (n.bad()) {
                failures++;
                cases.append(">\n    <failure message=\"").append(Xml.esc(n.status().label + ": " + n.reason())).append("\"/>\n  </testcase>\n");
            } else if (n.status() == NodeVerdict.Status.UNDECIDED) {
                skipped++;
                cases.append(">\n    <skipped message=\"").append(Xml.esc("undecided: " + n.reason())).append("\"/>\n  </testcase>\n");
            } else {
                cases.append("/>\n");
            }
        }
        for (LinkVerdict l : v.links()) {
            String name = doc.hosts().get(l.a()) + " - " + doc.hosts().get(l.b());
            cases.append("  <testcase classname=\"ncclbench.fleet.link\" name=\"").append(Xml.esc(name)).append("\"");
            if (l.status() == LinkVerdict.Status.BAD) {
                failures++;
                cases.append(">\n    <failure message=\"").append(Xml.esc("bad: " + l.reason())).append("\"/>\n  </testcase>\n");
            } else if (l.status() == LinkVerdict.Status.UNDECIDED || l.status() == LinkVerdict.Status.NOT_JUDGED) {
                skipped++;
                cases.append(">\n    <skipped message=\"").append(Xml.esc(l.status().label + ": " + l.reason())).append("\"/>\n  </testcase>\n");
            } else {
                cases.append("/>\n");
            }
        }
        int tests = v.nodes().size() + v.links().size();
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"ncclbench fleet\" tests=\"" + tests
                + "\" failures=\"" + failures + "\" errors=\"0\" skipped=\"" + skipped + "\">\n" + cases + "</testsuite>\n";
    }
}
