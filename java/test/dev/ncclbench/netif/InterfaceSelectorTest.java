package dev.ncclbench.netif;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NCCL's interface choice (NCCL-FACTS section 2) on hand-built interface lists. */
class InterfaceSelectorTest {
    private static final InterfaceSelector V2_30 = new InterfaceSelector(23007);
    private static final InterfaceSelector V2_27 = new InterfaceSelector(22703);

    private static NetInterface nic(String name, String ip, int prefix) {
        return nic(name, ip, prefix, true);
    }

    private static NetInterface nic(String name, String ip, int prefix, boolean running) {
        try {
            InetAddress a = InetAddress.getByName(ip);
            return new NetInterface(name, a, prefix, running, a.isLoopbackAddress());
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> names(InterfaceSelector.Selection s) {
        return s.interfaces().stream().map(NetInterface::name).toList();
    }

    /** A typical GPU node: loopback, two Ethernet ports, a bridge and docker, in kernel order. */
    private static final List<NetInterface> HOST = List.of(
            nic("lo", "127.0.0.1", 8),
            nic("eth0", "10.0.0.5", 16),
            nic("eth01", "10.2.0.5", 16),
            nic("ens3", "192.168.1.10", 24),
            nic("virbr0", "192.168.122.1", 24),
            nic("docker0", "172.17.0.1", 16),
            nic("lo", "::1", 128),
            nic("eth0", "fe80::1", 64));

    @Test
    void ifnamePrefixesIncludeOnlyThoseNames() {
        assertEquals(List.of("eth0", "eth01"), names(V2_30.select(HOST, "eth", null, null)));
        assertEquals(List.of("eth0", "eth01"), names(V2_30.select(HOST, "eth0", null, null)), "a prefix, not a name");
        assertEquals(List.of("eth0", "eth01", "ens3"), names(V2_30.select(HOST, "eth,ens", null, null)));
        assertEquals(List.of("ens3", "docker0"), names(V2_30.select(HOST, "docker,ens", null, null)), "kernel order, not list order");
    }

    @Test
    void exactNamesWithEquals() {
        assertEquals(List.of("eth0"), names(V2_30.select(HOST, "=eth0", null, null)));
        assertEquals(List.of("eth0", "ens3"), names(V2_30.select(HOST, "=eth0,ens3", null, null)));
        assertEquals(List.of(), names(V2_30.select(HOST, "=eth", null, null)));
    }

    @Test
    void caretExcludesPrefixesAndCaretEqualsExcludesExactNames() {
        assertEquals(List.of("lo", "ens3", "virbr0", "docker0"), names(V2_30.select(HOST, "^eth", null, null)));
        assertEquals(List.of("lo", "ens3", "virbr0", "docker0"), names(V2_30.select(HOST, "^eth0", null, null)));
        assertEquals(List.of("lo", "eth01", "ens3", "virbr0", "docker0"), names(V2_30.select(HOST, "^=eth0", null, null)));
        assertEquals(List.of("eth0", "eth01", "ens3"), names(V2_30.select(HOST, "^docker,lo,virbr", null, null)));
    }

    @Test
    void portSuffixIsIgnored() {
        assertEquals(List.of("eth0", "eth01"), names(V2_30.select(HOST, "eth0:29500", null, null)));
        assertEquals(List.of("eth0"), names(V2_30.select(HOST, "=eth0:29500", null, null)));
        assertEquals(List.of("lo", "eth01", "ens3", "virbr0", "docker0"), names(V2_30.select(HOST, "^=eth0:1", null, null)));
    }

    @Test
    void oneCharacterValueIsIgnored() {
        InterfaceSelector.Selection s = V2_30.select(HOST, "e", null, null);
        assertEquals(List.of("eth0", "eth01", "ens3"), names(s));
        assertTrue(s.rule().startsWith("default"), s.rule());
    }

    @Test
    void anIfnameThatMatchesNothingHasNoFallback() {
        InterfaceSelector.Selection s = V2_30.select(HOST, "doesnotexist", null, null);
        assertTrue(s.empty());
        assertEquals(null, s.bootstrap());
        assertTrue(s.rule().contains("doesnotexist"), s.rule());
    }

    @Test
    void defaultPrefersIbThenCommIdSubnetThenOrdinaryNames() {
        List<NetInterface> withIb = new ArrayList<>(HOST);
        withIb.add(nic("ib0", "10.9.0.1", 16));
        withIb.add(nic("ibp1s0", "10.10.0.1", 16));
        assertEquals(List.of("ib0", "ibp1s0"), names(V2_30.select(withIb, null, null, null)));
        assertEquals("ib0", V2_30.select(withIb, null, null, "10.2.3.4:5000").bootstrap().name(), "ib wins over NCCL_COMM_ID");

        // NCCL_COMM_ID in eth01's subnet: that interface only
        InterfaceSelector.Selection s = V2_30.select(HOST, null, null, "10.2.77.1:5000");
        assertEquals(List.of("eth01"), names(s));
        assertTrue(s.rule().contains("NCCL_COMM_ID"), s.rule());
        // NCCL_COMM_ID in no subnet: ordinary order
        assertEquals(List.of("eth0", "eth01", "ens3"), names(V2_30.select(HOST, null, null, "8.8.8.8:5000")));
        // unset: anything but docker, lo, virbr
        assertEquals(List.of("eth0", "eth01", "ens3"), names(V2_30.select(HOST, null, null, null)));
        assertEquals("eth0", V2_30.select(HOST, null, null, null).bootstrap().name());
    }

    @Test
    void defaultFallsBackToDockerThenLoThenVirbr() {
        List<NetInterface> noEth = List.of(nic("lo", "127.0.0.1", 8), nic("virbr0", "192.168.122.1", 24),
                nic("docker0", "172.17.0.1", 16));
        assertEquals(List.of("docker0"), names(V2_30.select(noEth, null, null, null)));
        List<NetInterface> loAndVirbr = List.of(nic("virbr0", "192.168.122.1", 24), nic("lo", "127.0.0.1", 8));
        assertEquals(List.of("lo"), names(V2_30.select(loAndVirbr, null, null, null)));
        List<NetInterface> virbrOnly = List.of(nic("virbr0", "192.168.122.1", 24));
        assertEquals(List.of("virbr0"), names(V2_30.select(virbrOnly, null, null, null)));
        assertTrue(V2_30.select(List.of(), null, null, null).empty());
    }

    @Test
    void before228VirbrIsAnOrdinaryInterfaceAndStoppedOnesCount() {
        List<NetInterface> noEth = List.of(nic("lo", "127.0.0.1", 8), nic("virbr0", "192.168.122.1", 24),
                nic("docker0", "172.17.0.1", 16));
        assertEquals(List.of("virbr0"), names(V2_27.select(noEth, null, null, null)),
                "2.27 and older: step 3 is ^docker,lo, so a libvirt bridge wins over docker");
        assertEquals(List.of("eth0", "eth01", "ens3", "virbr0"), names(V2_27.select(HOST, null, null, null)));

        List<NetInterface> down = List.of(nic("eth0", "10.0.0.5", 16, false), nic("eth1", "10.1.0.5", 16));
        assertEquals(List.of("eth0", "eth1"), names(V2_27.select(down, null, null, null)));
        assertEquals(List.of("eth1"), names(V2_30.select(down, null, null, null)), "2.28+: not-running skipped");
        assertEquals(List.of("eth1"), names(new InterfaceSelector(22800).select(down, null, null, null)));
        assertEquals(List.of("eth0"), names(V2_27.select(down, "eth0", null, null)));
        assertTrue(V2_30.select(down, "eth0", null, null).empty());
    }

    @Test
    void ipv6LoopbackIsSkippedAndTheFirstAddressPerNameKept() {
        List<NetInterface> only6lo = List.of(nic("lo", "::1", 128));
        assertTrue(V2_30.select(only6lo, null, null, null).empty());
        assertTrue(V2_30.select(only6lo, "lo", null, null).empty());

        List<NetInterface> v6first = List.of(nic("lo", "::1", 128), nic("lo", "127.0.0.1", 8));
        assertEquals("127.0.0.1", V2_30.select(v6first, "lo", null, null).bootstrap().address().getHostAddress());

        List<NetInterface> twoAddrs = List.of(nic("eth0", "10.0.0.5", 16), nic("eth0", "10.0.0.6", 16),
                nic("eth0", "fe80::1", 64));
        InterfaceSelector.Selection s = V2_30.select(twoAddrs, null, null, null);
        assertEquals(1, s.interfaces().size());
        assertEquals("10.0.0.5", s.bootstrap().address().getHostAddress());
        assertEquals("eth0:10.0.0.5", s.bootstrap().label());
    }

    @Test
    void socketFamilyFilters() {
        List<NetInterface> mixed = List.of(nic("eth0", "fe80::1", 64), nic("eth0", "10.0.0.5", 16),
                nic("eth1", "fd00::2", 64));
        assertEquals("fe80:0:0:0:0:0:0:1", mixed.get(0).address().getHostAddress());
        assertEquals(List.of("eth0", "eth1"), names(V2_30.select(mixed, null, null, null)));
        assertEquals("fe80:0:0:0:0:0:0:1", V2_30.select(mixed, null, null, null).bootstrap().address().getHostAddress());
        InterfaceSelector.Selection v4 = V2_30.select(mixed, null, "AF_INET", null);
        assertEquals(List.of("eth0"), names(v4));
        assertEquals("10.0.0.5", v4.bootstrap().address().getHostAddress());
        assertEquals(List.of("eth0", "eth1"), names(V2_30.select(mixed, null, "AF_INET6", null)));
        assertEquals(List.of("eth1"), names(V2_30.select(mixed, "eth1", "af_inet6", null)));
    }

    @Test
    void atMostSixteenInterfaces() {
        List<NetInterface> many = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            many.add(nic("eth" + i, "10.0." + i + ".1", 24));
        }
        InterfaceSelector.Selection s = V2_30.select(many, null, null, null);
        assertEquals(InterfaceSelector.MAX_INTERFACES, s.interfaces().size());
        assertEquals(16, s.interfaces().size());
        assertEquals("eth0", s.interfaces().get(0).name());
        assertEquals("eth15", s.interfaces().get(15).name());
        assertEquals(16, V2_30.select(many, "eth", null, null).interfaces().size());
    }

    @Test
    void namesForMessages() {
        assertEquals("lo, eth0, eth01, ens3, virbr0, docker0", InterfaceSelector.names(HOST));
        assertEquals("(none)", InterfaceSelector.names(List.of()));
    }

    @Test
    void subnetMatching() throws UnknownHostException {
        InetAddress a = InetAddress.getByName("10.1.2.3");
        assertTrue(InterfaceSelector.sameSubnet(a, InetAddress.getByName("10.1.200.1"), 16));
        assertTrue(!InterfaceSelector.sameSubnet(a, InetAddress.getByName("10.2.2.3"), 16));
        assertTrue(InterfaceSelector.sameSubnet(a, InetAddress.getByName("10.1.2.3"), 32));
        assertTrue(!InterfaceSelector.sameSubnet(a, InetAddress.getByName("::1"), 0));
    }
}
