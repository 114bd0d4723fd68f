package dev.ncclbench.diagnosis;

import dev.ncclbench.diagnosis.facts.NicLoad;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * explain per NIC: the channels and peers each listed NIC of each host carried, counted from the fixtures' NET channel
 * lines, and the verdicts: a NIC listed but carrying nothing, one carrying twice its share, and the shapes that are
 * neither (GPU pairs on one NIC, merged ports, NCCL_NETDEVS_POLICY spreading alltoall, logs that cannot show it).
 */
class NicLoadsTest {
    private static Diagnosis diagnose(String fixture, UnaryOperator<String> edit) throws IOException {
        String text = edit.apply(Files.readString(FixtureTest.fixtures().resolve(fixture)));
        NcclLogEvidence e = new NcclLogReader().read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                fixture).evidence();
        return Diagnoser.diagnose(e);
    }

    private static Diagnosis diagnose(String fixture) throws IOException {
        return diagnose(fixture, UnaryOperator.identity());
    }

    /** "mlx5_0=6/ok" per NIC of one host, in NCCL's device order. */
    private static String loads(Diagnosis d, String host) {
        return d.nics().stream().filter(n -> n.host().equals(host))
                .map(n -> n.nic() + "=" + n.allChannels() + "/" + n.verdict()).collect(Collectors.joining(" "));
    }

    private static List<Finding> nicFindings(Diagnosis d) {
        return d.findings().stream().filter(f -> f.ruleId().startsWith("NET-NIC-")).toList();
    }

    @Test
    void aListedNicThatCarriedNothingIsNamedWithItsSiblingsCounts() throws IOException {
        Diagnosis d = diagnose("rules/net-nic-unused.log");
        assertEquals("mlx5_0=4/ok mlx5_1=4/ok mlx5_2=4/ok mlx5_3=4/ok mlx5_4=4/ok mlx5_5=4/ok mlx5_6=4/ok mlx5_7=4/ok",
                loads(d, "gpu-a01"));
        // gpu-b07's 16 rings over seven ports: channels 0, 7, 14 on mlx5_0, 1, 8, 15 on mlx5_1, two each elsewhere
        assertEquals("mlx5_0=6/ok mlx5_1=6/ok mlx5_2=4/ok mlx5_3=0/unused mlx5_4=4/ok mlx5_5=4/ok mlx5_6=4/ok "
                + "mlx5_7=4/ok", loads(d, "gpu-b07"));
        NicLoad unused = d.nics().stream().filter(n -> n.verdict().equals(NicLoad.UNUSED)).findFirst().orElseThrow();
        assertEquals("carried 0 of 32 NET channels; its siblings 4-6", unused.why());
        // each NIC of gpu-a01 carries rings c and c+8: received from one rank of gpu-b07 and sent to another
        assertTrue(d.nics().stream().filter(n -> n.host().equals("gpu-a01")).allMatch(n -> n.peers() == 2),
                d.nics().toString());
        List<Finding> f = nicFindings(d);
        assertEquals(1, f.size(), f.toString());
        assertEquals("NET-NIC-UNUSED", f.get(0).ruleId());
        assertTrue(f.get(0).title().endsWith(": gpu-b07 mlx5_3"), f.get(0).title());
        assertTrue(f.get(0).detail().startsWith("gpu-b07 mlx5_3 carried 0 of 32 NET channels; its siblings 4-6"),
                f.get(0).detail());
        assertEquals(Health.HEALTHY, d.health(), "a warning: the job ran, on one rail less");
    }

    @Test
    void aNicCarryingTwiceItsShareIsNamedByItsOwnNameNotItsNeighboursNumber() throws IOException {
        Diagnosis d = diagnose("rules/net-nic-overloaded.log");
        // mlx5_3 is not listed on gpu-b07: NCCL's [3] is mlx5_4 there, and the channel lines' NET/IB/3 are mlx5_4's
        assertEquals("mlx5_0=4/ok mlx5_1=4/ok mlx5_2=8/overloaded mlx5_4=4/ok mlx5_5=4/ok mlx5_6=4/ok mlx5_7=4/ok",
                loads(d, "gpu-b07"));
        List<Finding> f = nicFindings(d);
        assertEquals(List.of("NET-NIC-OVERLOADED"), f.stream().map(Finding::ruleId).toList());
        assertTrue(f.get(0).detail().startsWith("gpu-b07 mlx5_2 carried 8 of 32 NET channels, about twice its share"
                + " of 4; its siblings 4 each"), f.get(0).detail());
    }

    @Test
    void oneNicPerGpuPairAndMergedPortsAreNotAccused() throws IOException {
        Diagnosis pairs = diagnose("era-2.30/nic-gpu-pairs.log");
        assertEquals("mlx5_0=8/ok mlx5_1=8/ok mlx5_2=8/ok mlx5_3=8/ok", loads(pairs, "gpu-b07"));
        assertEquals(List.of(), nicFindings(pairs));
        Diagnosis merged = diagnose("era-2.30/nic-merged-ports.log");
        // the channel lines' NET/IB/8..11 are the merged NICs; their member ports are no rows of their own
        assertEquals("mlx5_0+mlx5_1=8/ok mlx5_2+mlx5_3=8/ok mlx5_4+mlx5_5=8/ok mlx5_6+mlx5_7=8/ok",
                loads(merged, "gpu-a01"));
        assertEquals(List.of(), nicFindings(merged));
    }

    @Test
    void netdevsPolicyAllLetsAlltoallLeaveANicIdleWhileTheDefaultPolicyDoesNot() throws IOException {
        Diagnosis all = diagnose("era-2.30/nic-policy-all-alltoall.log");
        assertEquals("mlx5_0=16/not judged mlx5_1=8/not judged mlx5_2=8/not judged mlx5_3=0/not judged",
                loads(all, "gpu-a01"));
        assertTrue(all.nics().get(0).why().contains("NCCL_NETDEVS_POLICY=ALL"), all.nics().get(0).why());
        assertEquals(0, all.nics().get(0).channels());
        assertEquals(16, all.nics().get(0).p2pChannels());
        assertEquals(List.of(), nicFindings(all));
        // the same lines under AUTO (no policy line): each GPU has one NIC of its own, so mlx5_3 idle is a fault
        Diagnosis auto = diagnose("era-2.30/nic-policy-all-alltoall.log",
                t -> t.replaceAll("(?m)^.*NCCL_NETDEVS_POLICY set by environment.*\n", ""));
        assertEquals("mlx5_0=16/overloaded mlx5_1=8/ok mlx5_2=8/ok mlx5_3=0/unused", loads(auto, "gpu-a01"));
        assertEquals(List.of("NET-NIC-UNUSED", "NET-NIC-OVERLOADED"), nicFindings(auto).stream().map(Finding::ruleId)
                .toList());
    }

    @Test
    void aStoragePortListedBesideTheRailsIsExpectedIdleButNotTwoIdlePorts() throws IOException {
        // a storage port listed beside the rails: one idle port more than the GPUs can feed is no fault...
        Diagnosis one = diagnose("era-2.30/nic-gpu-pairs.log", t -> t.replace("[3]mlx5_3:1/IB [RO]",
                "[3]mlx5_3:1/IB [4]mlx5_4:1/RoCE [RO]"));
        assertEquals(List.of(), nicFindings(one), "a RoCE storage port is no sibling of IB rails");
        Diagnosis nine = diagnose("rules/net-nic-unused.log", t -> t.replace("[7]mlx5_7:1/IB [RO]",
                "[7]mlx5_7:1/IB [8]mlx5_8:1/IB [RO]"));
        assertTrue(loads(nine, "gpu-a01").endsWith("mlx5_7=4/not judged mlx5_8=0/not judged"),
                "gpu-a01: 8 rails carry, the 9th port idle is the one no GPU feeds: " + loads(nine, "gpu-a01"));
        // ...but on gpu-b07 mlx5_3 and mlx5_8 are both idle: 2 idle ports where 8 GPUs leave at most 1
        assertEquals("mlx5_0=6/ok mlx5_1=6/ok mlx5_2=4/ok mlx5_3=0/unused mlx5_4=4/ok mlx5_5=4/ok mlx5_6=4/ok "
                + "mlx5_7=4/ok mlx5_8=0/unused", loads(nine, "gpu-b07"));
        assertTrue(nine.nics().stream().filter(n -> n.nic().equals("mlx5_3") && n.host().equals("gpu-b07"))
                .allMatch(n -> n.why().equals("carried 0 of 32 NET channels; 2 of 9 ports idle where 8 GPU(s) leave"
                        + " at most 1 idle (mlx5_3, mlx5_8: one of them may be a port no GPU is near); its siblings"
                        + " 4-6")), nine.nics().toString());
    }

    @Test
    void logsThatCannotShowEveryChannelOfAHostAccuseNobody() throws IOException {
        // gpu-b07's ranks never print Init COMPLETE: its channel lines may be cut short
        Diagnosis cut = diagnose("rules/net-nic-unused.log",
                t -> t.replaceAll("(?m)^gpu-b07.*Init COMPLETE\n", ""));
        assertEquals(List.of(), nicFindings(cut));
        assertTrue(cut.nics().stream().filter(n -> n.host().equals("gpu-b07"))
                .allMatch(n -> n.verdict().equals(NicLoad.UNJUDGED)));
        // one process's file per host (rank 0's and rank 8's): one GPU cannot feed eight ports
        Diagnosis one = diagnose("rules/net-nic-unused.log",
                t -> t.lines().filter(l -> l.startsWith("#") || l.contains(":5100:") || l.contains(":5200:"))
                        .collect(Collectors.joining("\n", "", "\n")));
        assertEquals(List.of(), nicFindings(one));
        // a reader whose lists are full: later hosts' connection lines are counted in "dropped", not kept
        Diagnosis capped = Diagnoser.diagnose(new NcclLogReader(40).read(FixtureTest.fixtures().resolve(
                "rules/net-nic-unused.log")).evidence());
        assertEquals(List.of(), nicFindings(capped));
        assertTrue(capped.nics().stream().allMatch(n -> n.why().contains("dropped")), capped.nics().toString());
        // a second communicator on gpu-b07 (a sub-group of the job): channel lines name no communicator, so its
        // channels would add to the job's on a few NICs
        Diagnosis two = diagnose("rules/net-nic-unused.log", t -> t + "gpu-b07:5200:5290 [0] NCCL INFO"
                + " ncclCommInitRankConfig comm 0x7fff00 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0xbeef"
                + " - Init COMPLETE\n");
        assertEquals(List.of(), nicFindings(two));
        assertTrue(two.nics().stream().filter(n -> n.host().equals("gpu-b07"))
                .allMatch(n -> n.why().contains("2 communicators (commId 0x5eed, 0xbeef)")), two.nics().toString());
    }

    @Test
    void pluginAndSocketNicsAreCountedAgainstTheirOwnLists() throws IOException {
        // the SHARP plugin's channel lines say NET/IBext_v8/<n> and its devices are NET/IB's list
        Diagnosis ibext = diagnose("rules/net-nic-unused.log", t -> t.replace("via NET/IB/", "via NET/IBext_v8/"));
        assertEquals(loads(diagnose("rules/net-nic-unused.log"), "gpu-b07"), loads(ibext, "gpu-b07"));
        assertEquals(1, nicFindings(ibext).size());
        String socket = """
                sock-a:10:11 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0> [1]eth1:10.0.1.1<0>
                sock-a:10:11 [0] NCCL INFO Using network Socket
                sock-a:10:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/1
                sock-a:10:11 [0] NCCL INFO Channel 01/0 : 1[0] -> 0[0] [receive] via NET/Socket/1
                sock-a:10:11 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/1
                """;
        NcclLogEvidence e = new NcclLogReader().read(new ByteArrayInputStream(socket.getBytes(StandardCharsets.UTF_8)),
                "-").evidence();
        Map<String, Integer> byNic = new LinkedHashMap<>();
        Diagnoser.diagnose(e).nics().forEach(n -> byNic.put(n.nic(), n.channels()));
        assertEquals(Map.of("eth0", 0, "eth1", 3), byNic);
        // 2.30 prints a rail and a plane after the port when the NIC has them (net_ib/init.cc " [%d]%s:%d", ":%d",
        // "/%s"): the name is still the device's
        String rails = """
                rail-a:10:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1:0/IB [1]mlx5_1:1:1/IB [RO]; OOB ib0:10.0.0.1<0>
                rail-a:10:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/1/GDRDMA
                """;
        e = new NcclLogReader().read(new ByteArrayInputStream(rails.getBytes(StandardCharsets.UTF_8)), "-").evidence();
        assertEquals(List.of("mlx5_0", "mlx5_1"), Diagnoser.diagnose(e).nics().stream().map(NicLoad::nic).toList());
        assertEquals(1, Diagnoser.diagnose(e).nics().get(1).channels());
    }

    @Test
    void textAndJsonCarryEveryNicsCounts() throws IOException {
        Explanation x = new Explanation(new NcclLogReader().read(FixtureTest.fixtures().resolve(
                "rules/net-nic-unused.log")).evidence(), diagnose("rules/net-nic-unused.log"), List.of());
        StringWriter w = new StringWriter();
        x.write(new PrintWriter(w, true));
        String text = w.toString();
        // the host with the idle NIC first
        assertTrue(text.contains("NICs:   NET channels each NIC carried (ring/tree; +send/recv), peers\n"
                + "  gpu-b07 (IB): mlx5_0 6 (4 peers), mlx5_1 6 (4 peers), mlx5_2 4 (3 peers), mlx5_3 0 (0 peers)"
                + " UNUSED"),
                text);
        assertTrue(x.json().contains("\"nics\" : [ {"), x.json());
        assertTrue(x.json().contains("\"p2p_channels\""), x.json());
    }
}
