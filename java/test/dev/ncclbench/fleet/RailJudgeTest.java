package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.netif.NetInterface;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rail round's plan and judgement on a simulated fabric (a pair's result is the slower of its two rails), and the
 * worst cases: two nodes alone, one rail alone, rails of different counts, a rail down.
 */
class RailJudgeTest {
    private static final RailJudge RELATIVE = new RailJudge(r -> Optional.empty());

    private static List<List<NodeRail>> rails(int nodes, int perNode) {
        List<List<NodeRail>> out = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            List<NodeRail> l = new ArrayList<>();
            for (int r = 0; r < perNode; r++) {
                l.add(new NodeRail("eth" + (r + 1), "eth" + (r + 1), "10.0." + r + "." + (n + 1), null));
            }
            out.add(l);
        }
        return out;
    }

    private static List<String> hosts(int n) {
        List<String> h = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            h.add("node" + i);
        }
        return h;
    }

    /** A fabric where rail r of node n runs at rate[n][r] GB/s and a pair gets the slower end, with a little noise. */
    private static RoundRunner fabric(double[][] rate, long seed) {
        java.util.Random noise = new java.util.Random(seed);
        return plan -> {
            List<Double> busbw = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            for (int i = 0; i < plan.groups().size(); i++) {
                Group g = plan.groups().get(i);
                int r = plan.rail(i);
                busbw.add(Math.min(rate[g.members().get(0)][r], rate[g.members().get(1)][r]) * (0.95 + 0.05 * noise.nextDouble()));
                errors.add(null);
            }
            return new RoundRunner.Outcome(busbw, errors, Map.of());
        };
    }

    private static RailResult run(List<List<NodeRail>> rails, double[][] rate, RailJudge judge) {
        return RailSearch.run(hosts(rails.size()), rails, Set.of(), 1, fabric(rate, 7), judge, x -> { }, x -> { });
    }

    private static double[][] rates(int nodes, int perNode, double gbps) {
        double[][] r = new double[nodes][perNode];
        for (double[] row : r) {
            java.util.Arrays.fill(row, gbps);
        }
        return r;
    }

    @Test
    void namesExactlyTheHalfRateRailOfEveryNodeAndRailAtEveryFleetSize() {
        for (int nodes = 3; nodes <= 8; nodes++) {
            for (int slowNode = 0; slowNode < nodes; slowNode++) {
                for (int slowRail = 0; slowRail < 4; slowRail++) {
                    double[][] rate = rates(nodes, 4, 48);
                    rate[slowNode][slowRail] = 24;
                    RailResult res = run(rails(nodes, 4), rate, RELATIVE);
                    List<RailVerdict> bad = res.bad();
                    String where = nodes + " nodes, slow " + slowNode + "/" + slowRail + ": " + res.verdicts();
                    assertEquals(1, bad.size(), where);
                    assertEquals(slowNode, bad.get(0).rank(), where);
                    assertEquals(slowRail, bad.get(0).rail(), where);
                    assertEquals(RailVerdict.Status.SLOW, bad.get(0).status(), where);
                    assertTrue(res.verdicts().stream().filter(v -> v != bad.get(0))
                            .allMatch(v -> v.status() == RailVerdict.Status.OK), where);
                    assertTrue(bad.get(0).reason().startsWith("rail " + slowRail + " (eth" + (slowRail + 1) + "): 2"), bad.get(0).reason());
                    assertTrue(bad.get(0).reason().contains("siblings 4"), bad.get(0).reason());
                }
            }
        }
    }

    @Test
    void aPlanPairsEachRailWithTwoPartnersAndHoldsEachGroupToItsRail() {
        List<RoundPlan> plans = RailSearch.plan(rails(5, 2), Set.of(), 4);
        assertEquals(3, plans.size(), "an odd count: three pairings");
        assertEquals(4, plans.get(0).round());
        for (int n = 0; n < 5; n++) {
            for (int r = 0; r < 2; r++) {
                Set<Integer> partners = new java.util.TreeSet<>();
                for (RoundPlan p : plans) {
                    for (int i = 0; i < p.groups().size(); i++) {
                        if (p.rail(i) == r && p.groups().get(i).contains(n)) {
                            partners.add(p.groups().get(i).other(n));
                        }
                    }
                }
                assertTrue(partners.size() >= 2, "node " + n + " rail " + r + ": " + partners);
            }
        }
    }

    @Test
    void twoNodesAloneLeaveASlowRailUndecidedAndAccuseNeither() {
        double[][] rate = rates(2, 4, 48);
        rate[1][3] = 24;
        RailResult res = run(rails(2, 4), rate, RELATIVE);
        assertTrue(res.bad().isEmpty(), res.verdicts().toString());
        assertEquals(RailVerdict.Status.UNDECIDED, res.of(0, 3).status());
        assertEquals(RailVerdict.Status.UNDECIDED, res.of(1, 3).status());
        assertTrue(res.of(1, 3).reason().contains("which end is slow cannot be told"), res.of(1, 3).reason());
        assertEquals(RailVerdict.Status.OK, res.of(0, 0).status());
    }

    @Test
    void oneRailWithNoSiblingAndNoLineRateIsNotJudgedNeverOk() {
        double[][] rate = rates(2, 1, 48);
        RailResult res = run(rails(2, 1), rate, RELATIVE);
        for (RailVerdict v : res.verdicts()) {
            assertEquals(RailVerdict.Status.NOT_JUDGED, v.status(), v.toString());
            assertTrue(v.reason().contains("no sibling rail was measured and no line rate is known"), v.reason());
        }
        // the catalog's line rate gives it something to be judged by: fine above the healthy minimum
        RailJudge withLine = new RailJudge(RailRate.lines(List.of(), OptionalDouble.of(40), "ib-ndr's healthy minimum"));
        RailResult judged = run(rails(2, 1), rate, withLine);
        assertTrue(judged.verdicts().stream().allMatch(v -> v.status() == RailVerdict.Status.OK), judged.verdicts().toString());
    }

    @Test
    void everyRailBelowItsLineRateIsNeverOkEvenWhenTheSiblingsAgree() {
        double[][] rate = rates(4, 4, 24); // all trained down: relative judgement alone would call them fine
        FabricCatalog.Site site = new FabricCatalog.Site("10.0.2.0/24",
                new FabricEntry("ib-ndr", "ib", 50, 0.8, 0.95, "rdma", "test"), "catalog.txt:3"); // healthy minimum 40 GB/s
        RailResult res = run(rails(4, 4), rate, new RailJudge(RailRate.lines(List.of(site), OptionalDouble.empty(), null)));
        for (RailVerdict v : res.verdicts()) {
            if (v.rail() == 2) {
                assertTrue(v.status() != RailVerdict.Status.OK, v.toString());
                assertTrue(v.reason().contains("below ib-ndr's healthy minimum 40.0 GB/s (catalog.txt:3: site 10.0.2.0/24)"), v.reason());
            } else {
                assertEquals(RailVerdict.Status.OK, v.status(), v.toString());
            }
        }
    }

    @Test
    void railsOfDifferentCountsAndARailDown() {
        List<List<NodeRail>> rails = rails(4, 4);
        rails.set(0, List.of(rails.get(0).get(0))); // a node with one rail
        List<NodeRail> three = new ArrayList<>(rails.get(2));
        three.set(1, new NodeRail("eth2", "eth2", "10.0.1.3", "eth2 is down (not RUNNING)"));
        rails.set(2, three);
        RailResult res = run(rails, rates(4, 4, 48), RELATIVE);
        assertEquals(RailVerdict.Status.DOWN, res.of(2, 1).status());
        assertTrue(res.of(2, 1).reason().startsWith("rail 1 (eth2) is down: eth2 is down"), res.of(2, 1).reason());
        assertEquals(1, res.bad().size(), res.verdicts().toString());
        assertEquals(RailVerdict.Status.OK, res.of(0, 0).status(), "one rail, judged by the same rail elsewhere");
        assertEquals(null, res.of(0, 1), "node 0 has no rail 1");
        // rail 1 is up on two nodes only: each ran with the other alone, and both are fine
        assertEquals(RailVerdict.Status.OK, res.of(1, 1).status(), res.of(1, 1).toString());
        assertEquals(13, res.verdicts().size());
    }

    @Test
    void interfacesInRailOrderWithADownAndAMissingOne() throws Exception {
        List<NetInterface> scan = List.of(
                new NetInterface("eth10", InetAddress.getByName("10.0.9.1"), 24, true, false),
                new NetInterface("eth2", InetAddress.getByName("10.0.1.1"), 24, true, false),
                new NetInterface("eth1", InetAddress.getByName("10.0.0.1"), 24, false, false),
                new NetInterface("lo", InetAddress.getByName("127.0.0.1"), 8, true, true));
        List<NodeRail> byPattern = RailSource.interfaces("eth*", scan).rails();
        assertEquals(List.of("eth1", "eth2", "eth10"), byPattern.stream().map(NodeRail::nic).toList());
        assertEquals("eth1 is down (not RUNNING)", byPattern.get(0).down());
        List<NodeRail> named = RailSource.interfaces("eth2,eth3", scan).rails();
        assertTrue(named.get(0).up());
        assertTrue(named.get(1).down().startsWith("eth3 has no IPv4 address"), named.get(1).down());
        assertThrows(NcclbenchException.class, () -> RailSource.interfaces("eth2,eth2", scan));
        assertThrows(NcclbenchException.class, () -> RailSource.interfaces("eth 2", scan));
    }
    @Test
    void aRailWhoseGroupsFailWhileItsNodeAnswersIsSlowAndSaysWhy() {
        double[][] rate = rates(4, 2, 48);
        RoundRunner fabric = plan -> {
            List<Double> busbw = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            for (int i = 0; i < plan.groups().size(); i++) {
                boolean broken = plan.rail(i) == 1 && plan.groups().get(i).contains(2);
                busbw.add(broken ? Double.NaN : 48.0);
                errors.add(broken ? "rank 2 could not reach rank 0 on rail 1 (No route to host)" : null);
            }
            return new RoundRunner.Outcome(busbw, errors, Map.of());
        };
        RailResult res = RailSearch.run(hosts(4), rails(4, 2), Set.of(), 1, fabric, RELATIVE, x -> { }, x -> { });
        assertEquals(1, res.bad().size(), res.verdicts().toString());
        assertEquals(RailVerdict.Status.SLOW, res.of(2, 1).status());
        assertTrue(res.of(2, 1).reason().contains("every group failed: rank 2 could not reach"), res.of(2, 1).reason());
    }

    @Test
    void aHelloCarriesOnlyRailsRankZeroCanSayAsTheyAre() {
        assertTrue(new NodeRail("mlx5_0+mlx5_1", "ib0", "10.1.2.3", null).sayable());
        assertTrue(!new NodeRail("eth1", "eth1", "evil.example.com", null).sayable(), "an address is a literal, never resolved");
        assertTrue(!new NodeRail("eth1", "eth1", null, "down\nfleet: all good").sayable(), "one line");
        assertTrue(!new NodeRail("<b>", "eth1", null, null).sayable());
    }
    @Test
    void aNodeWhereRailsMatchedNothingIsSaidNotPassedOver() {
        List<List<NodeRail>> rails = rails(4, 2);
        rails.set(1, List.of());
        RailResult res = run(rails, rates(4, 2, 48), RELATIVE);
        RailVerdict none = res.of(1, 0);
        assertEquals(RailVerdict.Status.NOT_JUDGED, none.status());
        assertTrue(none.reason().startsWith("no rail: --rails matched no interface"), none.reason());
        assertTrue(res.bad().isEmpty(), res.verdicts().toString());
    }

    /**
     * A fabric whose shared rounds starve one node's CPU: rail {@code r} of node {@code n} reads {@code contended} GB/s in
     * a round of many groups and its own rate in a round of few (the confirmation round).
     */
    private static RoundRunner contended(double[][] rate, int n, int r, double contended) {
        RoundRunner fair = fabric(rate, 7);
        return plan -> {
            RoundRunner.Outcome o = fair.run(plan);
            List<Double> busbw = new ArrayList<>(o.busbw());
            for (int i = 0; i < plan.groups().size(); i++) {
                if (plan.groups().size() > 4 && plan.rail(i) == r && plan.groups().get(i).contains(n)) {
                    busbw.set(i, Math.min(busbw.get(i), contended));
                }
            }
            return new RoundRunner.Outcome(busbw, o.errors(), o.lost());
        };
    }

    @Test
    void aHealthyRailSlowOnceUnderContentionAndFineAloneIsOkNotDrained() {
        double[][] rate = rates(8, 4, 48);
        RailJudge withLine = new RailJudge(RailRate.lines(List.of(), OptionalDouble.of(40), "ib-ndr's healthy minimum"));
        RailResult res = RailSearch.run(hosts(8), rails(8, 4), Set.of(), 1, contended(rate, 5, 2, 20), withLine,
                x -> { }, x -> { });
        assertTrue(res.bad().isEmpty(), res.verdicts().toString());
        RailVerdict v = res.of(5, 2);
        assertEquals(RailVerdict.Status.OK, v.status(), v.toString());
        assertTrue(v.reason().startsWith("rail 2 (eth3): slow in the shared round (20.0 GB/s, siblings 4"), v.reason());
        assertTrue(v.reason().contains(") and fine with node"), v.reason());
        assertTrue(v.reason().contains("in a round of the slow rails only: 4"), v.reason());
        assertTrue(v.busbw() > 40, "the verdict carries the re-measure: " + v);
        RoundPlan again = res.plans().get(res.plans().size() - 1);
        assertEquals(3, res.plans().size(), "two shared rounds and one of the suspect alone");
        assertEquals(1, again.groups().size(), again.toString());
        assertEquals(2, again.rail(0));
        assertTrue(again.groups().get(0).contains(5));
    }

    @Test
    void aTrulyHalfRailSlowBothTimesIsNamedAndTheRoundHoldsOnlySuspects() {
        double[][] rate = rates(8, 4, 48);
        rate[3][1] = 24;
        rate[6][0] = 24;
        RailResult res = run(rails(8, 4), rate, RELATIVE);
        assertEquals(2, res.bad().size(), res.verdicts().toString());
        for (RailVerdict v : res.bad()) {
            assertEquals(RailVerdict.Status.SLOW, v.status(), v.toString());
            assertTrue(v.reason().contains("; slow again with node"), v.reason());
        }
        assertEquals(List.of(3, 6), res.bad().stream().map(RailVerdict::rank).toList());
        RoundPlan again = res.plans().get(res.plans().size() - 1);
        assertEquals(2, again.groups().size(), "one group per suspect: " + again);
        for (int i = 0; i < again.groups().size(); i++) {
            Group g = again.groups().get(i);
            int suspect = again.rail(i) == 1 ? 3 : 6;
            assertTrue(g.contains(suspect), again.toString());
            assertEquals(RailVerdict.Status.OK, res.of(g.other(suspect), again.rail(i)).status(), "partner fine on that rail");
        }
    }

    /** A rail whose only group failed because its partner was lost is not judged, and says so, not "no partner". */
    @Test
    void aRailWhosePartnerWasLostSaysSoNotThatNoneWasUp() {
        List<RailMeasurement> ms = List.of(new RailMeasurement(1, 0, 0, 1, Double.NaN, "rank 1 was lost"));
        List<RailVerdict> v = RELATIVE.judge(hosts(2), rails(2, 1), ms, Set.of(1));
        assertEquals(RailVerdict.Status.NOT_JUDGED, v.get(0).status(), v.toString());
        assertTrue(v.get(0).reason().contains("failed when node1 was lost"), v.get(0).reason());
        assertEquals("rail 0 (eth1) not judged: the node was lost", v.get(1).reason());
        List<RailVerdict> alone = RELATIVE.judge(hosts(2), rails(2, 1), List.of(), Set.of());
        assertTrue(alone.get(0).reason().endsWith("no other node had a rail 0 up to pair it with"), alone.get(0).reason());
    }
}
