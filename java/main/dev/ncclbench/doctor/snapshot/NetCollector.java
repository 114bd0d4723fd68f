package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.Json;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Interfaces from /sys/class/net (index, flags, type, speed, driver, device) and their addresses: from the kernel
 * through the JDK on a live host, from `ip -j addr show` in a capture (sysfs has no IPv4 addresses).
 */
final class NetCollector {
    static final String NAME = "interfaces";
    private static final int IFF_UP = 0x1;
    private static final int IFF_LOOPBACK = 0x8;
    private static final int IFF_RUNNING = 0x40;

    private NetCollector() {
    }

    static List<NetLink> collect(HostFiles files) {
        Map<String, List<NetLink.Address>> addresses = files.isLive() ? liveAddresses() : capturedAddresses(files);
        List<NetLink> out = new ArrayList<>();
        for (String name : files.list(NAME, "/sys/class/net")) {
            String dir = "/sys/class/net/" + name;
            if (!files.exists(dir + "/ifindex")) {
                continue; // bonding_masters and other non-interface files
            }
            int index = intOr(files.read(NAME, dir + "/ifindex").orElse(null), 0);
            Integer flagBits = hex(files.read(NAME, dir + "/flags").orElse(null));
            List<String> flags = new ArrayList<>();
            if (flagBits == null) {
                files.problem(NAME, dir + "/flags", "unreadable: UP and RUNNING of " + name + " unknown");
            } else {
                if ((flagBits & IFF_UP) != 0) {
                    flags.add("UP");
                }
                // sysfs flags never carry IFF_RUNNING: the kernel adds it (dev_get_flags) when the link is up and its
                // operstate is up or unknown (netif_oper_up), which is what getifaddrs reports to NCCL
                String oper = files.read(NAME, dir + "/operstate").orElse("");
                if ((flagBits & IFF_RUNNING) != 0 || (flagBits & IFF_UP) != 0 && (oper.equals("up") || oper.equals("unknown"))) {
                    flags.add("RUNNING");
                }
                if ((flagBits & IFF_LOOPBACK) != 0) {
                    flags.add("LOOPBACK");
                }
            }
            Integer speed = files.read(NAME, dir + "/speed").map(s -> intOr(s, -1)).filter(s -> s > 0).orElse(null);
            String type = switch (files.read(NAME, dir + "/type").orElse("")) {
                case "1" -> "ether";
                case "32" -> "infiniband";
                case "772" -> "loopback";
                case "" -> "unknown";
                default -> files.read(NAME, dir + "/type").orElse("unknown");
            };
            String driver = files.linkName(dir + "/device/driver").orElse(null);
            String device = files.linkTarget(dir + "/device").orElse(null);
            if (driver == null && device == null) {
                // virtual: veth, bridge, loopback have no device; the kind is in uevent for some
                driver = files.read(NAME, dir + "/uevent").flatMap(NetCollector::devtype).orElse(null);
            }
            out.add(new NetLink(name, index, flags, addresses.getOrDefault(name, List.of()), speed, type, driver,
                    device != null && device.contains("/pci") ? device : null));
        }
        out.sort(Comparator.comparingInt(NetLink::index));
        return out;
    }

    private static java.util.Optional<String> devtype(String uevent) {
        for (String line : uevent.split("\n")) {
            if (line.startsWith("DEVTYPE=")) {
                return java.util.Optional.of(line.substring(8));
            }
        }
        return java.util.Optional.empty();
    }

    private static Map<String, List<NetLink.Address>> liveAddresses() {
        Map<String, List<NetLink.Address>> out = new LinkedHashMap<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                List<NetLink.Address> v4 = new ArrayList<>();
                List<NetLink.Address> v6 = new ArrayList<>();
                for (InterfaceAddress ia : nic.getInterfaceAddresses()) {
                    String a = ia.getAddress().getHostAddress().replaceAll("%.*$", "");
                    (ia.getAddress() instanceof Inet6Address ? v6 : v4).add(new NetLink.Address(a, ia.getNetworkPrefixLength()));
                }
                v4.addAll(v6);
                out.put(nic.getName(), v4);
            }
        } catch (SocketException e) {
            // the caller sees interfaces without addresses; NetCollector's problem below names it
        }
        return out;
    }

    /** `ip -j addr show` saved by capture-host.sh; unparseable is a corrupt capture (exit 2). */
    private static Map<String, List<NetLink.Address>> capturedAddresses(HostFiles files) {
        Map<String, List<NetLink.Address>> out = new LinkedHashMap<>();
        Path p = files.at("/" + HostFiles.EXTRAS + "/ip-addr.json");
        if (!Files.isRegularFile(p)) {
            files.problem(NAME, HostFiles.EXTRAS + "/ip-addr.json", "the capture has no addresses (ip -j addr show"
                    + " was not saved): the interface prediction sees no addresses");
            return out;
        }
        JsonNode doc;
        try {
            doc = Json.mapper().readTree(p.toFile());
        } catch (IOException e) {
            throw NcclbenchException.usage("corrupt capture: " + p + " is not JSON (" + firstLine(e.getMessage()) + ")");
        }
        if (!doc.isArray()) {
            throw NcclbenchException.usage("corrupt capture: " + p + " is not the array that ip -j addr show prints");
        }
        for (JsonNode link : doc) {
            List<NetLink.Address> v4 = new ArrayList<>();
            List<NetLink.Address> v6 = new ArrayList<>();
            for (JsonNode a : link.path("addr_info")) {
                String fam = a.path("family").asText();
                NetLink.Address addr = new NetLink.Address(a.path("local").asText(), a.path("prefixlen").asInt());
                if (fam.equals("inet")) {
                    v4.add(addr);
                } else if (fam.equals("inet6")) {
                    v6.add(addr);
                }
            }
            v4.addAll(v6);
            out.put(link.path("ifname").asText(), v4);
        }
        return out;
    }

    static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** A number sysfs prints in C's notation ("0x1003", "16", "-1"); null when unreadable. */
    static Integer hex(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Integer.decode(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static int intOr(String s, int dflt) {
        if (s == null) {
            return dflt;
        }
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}
