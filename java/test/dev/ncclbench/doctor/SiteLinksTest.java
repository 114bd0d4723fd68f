package dev.ncclbench.doctor;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.doctor.predict.LinkRates;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fabric catalog's site section declares link rates by interface name or subnet, before sysfs. */
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

    @Test
    void aSiteLineNamingAnUnknownFabricIsAUsageError() {
        NcclbenchException e = assertThrows(NcclbenchException.class,
                () -> FabricCatalog.parse(new StringReader("eth-1g ethernet 0.125 0.8 0.95 socket x\nsite eth0 nope\n"), "c.txt"));
        assertEquals(2, e.exitCode().code);
        assertTrue(e.getMessage().startsWith("c.txt:2: site eth0 names fabric 'nope'"), e.getMessage());
        assertThrows(NcclbenchException.class, () -> FabricCatalog.parse(new StringReader("site eth0\n"), "c.txt"));
    }
}
