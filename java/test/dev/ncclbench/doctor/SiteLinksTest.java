package dev.ncclbench.doctor;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.doctor.predict.LinkRates;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.SiteLink;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fabric catalog's site section declares link rates by a link's name, a prefix or a subnet, before sysfs. */
class SiteLinksTest {
    private static final Path LAB = Path.of(System.getProperty("ncclbench.basedir", "."), "scripts", "lab", "fabric-catalog.txt");

    @Test
    void theLabCatalogDeclaresEth0ByNameAndRdma0BySubnet() {
        HostSnapshot s = HostFixturesTest.host("a100-two-nic").withSiteLinks(Doctor.siteLinks(LAB));
        LinkRates.Rate eth0 = LinkRates.of(s, "eth0").orElseThrow();
        assertEquals(0.5, eth0.gbps(), 1e-9);
        assertEquals("500 Mbit/s", eth0.text());
        assertTrue(eth0.source().contains("fabric-catalog.txt:6"), eth0.source());
        assertEquals(100, LinkRates.of(s, "rdma0").orElseThrow().gbps(), 1e-9, "192.168.100.1 is in 192.168.100.0/24");
        // without the site section: sysfs speed for eth0, the IB port's rate for IPoIB rdma0
        HostSnapshot plain = HostFixturesTest.host("a100-two-nic");
        assertEquals("/sys/class/net/eth0/speed", LinkRates.of(plain, "eth0").orElseThrow().source());
        assertTrue(LinkRates.of(plain, "rdma0").orElseThrow().source().contains("infiniband/mlx5_0/ports/1/rate"));
    }

    /** doctor's link rates and rail table and fleet --rails ask the one matcher: a prefix line rates eth0 for each. */
    @Test
    void aSiteLineMeansTheSameToEveryReader() throws Exception {
        FabricCatalog c = FabricCatalog.parse(new StringReader(
                "lab ethernet 0.0625 0.8 0.95 socket x\nsite eth* lab\nsite 10.0.2.0/24 lab\n"), "c.txt");
        FabricCatalog.Site prefix = c.sites().get(0);
        FabricCatalog.Site subnet = c.sites().get(1);
        assertTrue(prefix.covers(List.of("eth0"), List.of()), "a prefix names eth0");
        assertTrue(prefix.covers(Arrays.asList("mlx5_0:1", null, "eth3"), List.of()), "any of a link's names, nulls skipped");
        assertFalse(prefix.covers(List.of("ib0"), List.of("10.0.3.1")));
        assertTrue(subnet.covers(List.of("ib0"), List.of("10.0.2.7")), "an address in the subnet");
        assertFalse(subnet.covers(List.of("ib0"), List.of("10.0.3.1")), "an address outside it");
        HostSnapshot s = HostFixturesTest.host("a100-two-nic").withSiteLinks(List.of(
                new SiteLink("eth*", "lab", 0.5, "c.txt:2")));
        assertEquals("c.txt:2 (site: eth* is lab)", LinkRates.of(s, "eth0").orElseThrow().source(), "doctor reads the prefix too");
    }

    @Test
    void aSiteLineNamingAnUnknownFabricIsAUsageError() {
        NcclbenchException e = assertThrows(NcclbenchException.class,
                () -> FabricCatalog.parse(new StringReader("eth-1g ethernet 0.125 0.8 0.95 socket x\nsite eth0 nope\n"), "c.txt"));
        assertEquals(2, e.exitCode().code);
        assertTrue(e.getMessage().startsWith("c.txt:2: site eth0 names fabric 'nope'"), e.getMessage());
        assertThrows(NcclbenchException.class, () -> FabricCatalog.parse(new StringReader("site eth0\n"), "c.txt"));
    }
}
