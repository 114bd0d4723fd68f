package dev.ncclbench.doctor.predict;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NetLink;
import dev.ncclbench.doctor.snapshot.Versions;
import dev.ncclbench.netif.InterfaceSelector;
import dev.ncclbench.netif.NetInterface;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * NCCL's interface choice for one snapshot, through {@link InterfaceSelector} (the one implementation of
 * NCCL-FACTS section 2). The NCCL version decides the rules (2.28 added virbr and skips links not RUNNING).
 */
public final class InterfacePredictor {
    /** The version assumed when none was found: the newest this project knows. */
    public static final String ASSUMED = "2.30.7";

    private InterfacePredictor() {
    }

    public static Prediction predict(HostSnapshot s) {
        return predict(s, s.setting("NCCL_SOCKET_IFNAME").map(HostSnapshot.Setting::value).orElse(null));
    }

    /** The prediction with another NCCL_SOCKET_IFNAME (null: unset), the rest of the snapshot as it is. */
    public static Prediction predict(HostSnapshot s, String ifname) {
        String version = version(s);
        InterfaceSelector sel = new InterfaceSelector(Versions.code(version.split(" ")[0]));
        List<NetInterface> all = candidates(s);
        String family = s.setting("NCCL_SOCKET_FAMILY").map(HostSnapshot.Setting::value).orElse(null);
        String commId = s.setting("NCCL_COMM_ID").map(HostSnapshot.Setting::value).orElse(null);
        InterfaceSelector.Selection sock = sel.select(all, ifname, family, commId);
        InterfaceSelector.Selection boot = sel.bootstrap(all, ifname, family, commId);
        NetInterface b = boot.bootstrap();
        String why = b == null ? boot.rule() + " matches no interface that is running with an address"
                : boot.rule() + "; first match in kernel order";
        List<Prediction.Endpoint> socket = new ArrayList<>();
        for (NetInterface ni : sock.interfaces()) {
            socket.add(new Prediction.Endpoint(ni.name(), address(ni)));
        }
        return new Prediction(new Prediction.Bootstrap(b == null ? null : b.name(), b == null ? null : address(b), why),
                socket, version);
    }

    /** "2.30.7 (the probe)", "2.18.5 (libnccl file name)" or the assumption. */
    static String version(HostSnapshot s) {
        if (s.probe() != null && s.probe().version() != null) {
            return s.probe().version() + " (the probe)";
        }
        if (s.versions().nccl() != null && Versions.code(s.versions().nccl()) > 0) {
            return s.versions().nccl() + " (" + (s.versions().ncclLibrary() == null ? "recorded" : s.versions().ncclLibrary()) + ")";
        }
        return ASSUMED + " (assumed: no NCCL version found)";
    }

    /** The snapshot's addresses as getifaddrs returns them: every IPv4 address by ifindex, then every IPv6. */
    public static List<NetInterface> candidates(HostSnapshot s) {
        List<NetInterface> v4 = new ArrayList<>();
        List<NetInterface> v6 = new ArrayList<>();
        for (NetLink l : s.interfaces()) {
            for (NetLink.Address a : l.addresses()) {
                try {
                    InetAddress ia = InetAddress.getByName(a.address());
                    NetInterface ni = new NetInterface(l.name(), ia, a.prefix(), l.running(), l.loopback());
                    (ni.ipv6() ? v6 : v4).add(ni);
                } catch (UnknownHostException e) {
                    // not an address literal: a corrupt entry contributes nothing
                }
            }
        }
        v4.addAll(v6);
        return v4;
    }

    private static String address(NetInterface ni) {
        return ni.address().getHostAddress().replaceAll("%.*$", "");
    }
}
