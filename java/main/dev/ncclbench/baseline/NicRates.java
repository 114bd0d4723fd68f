package dev.ncclbench.baseline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The link rate of an interface, read from /sys/class/net when the run was on this host. */
interface NicRates {
    /** The rate as "25000 Mb/s", or "" when it is not known here (another host, a virtual link, loopback). */
    String rate(String host, String nic);

    NicRates NONE = (host, nic) -> "";

    /** @param me this node's name (launch/HostName.node), or null when not known: then no rate is */
    static NicRates local(String me) {
        return (host, nic) -> {
            if (me == null || me.isEmpty() || host == null || !(host.equals(me) || me.startsWith(host + ".")
                    || host.startsWith(me + "."))) {
                return "";
            }
            try {
                String s = Files.readString(Path.of("/sys/class/net", nic, "speed")).strip();
                long v = Long.parseLong(s);
                return v > 0 ? v + " Mb/s" : "";
            } catch (IOException | NumberFormatException | SecurityException e) {
                return ""; // virtual links and loopback have no rate: not known, not zero
            }
        };
    }
}
