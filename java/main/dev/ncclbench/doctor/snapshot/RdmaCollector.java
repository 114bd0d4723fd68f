package dev.ncclbench.doctor.snapshot;

import java.util.ArrayList;
import java.util.List;

/** RDMA devices from /sys/class/infiniband (ports, states, rates, link layers, GID tables) and /dev/infiniband. */
final class RdmaCollector {
    static final String NAME = "infiniband";
    private static final String EMPTY_GID = "0000:0000:0000:0000:0000:0000:0000:0000";

    private RdmaCollector() {
    }

    static List<IbDevice> devices(HostFiles files) {
        List<IbDevice> out = new ArrayList<>();
        for (String dev : files.list(NAME, "/sys/class/infiniband")) {
            String dir = "/sys/class/infiniband/" + dev;
            List<IbDevice.Port> ports = new ArrayList<>();
            for (String p : files.list(NAME, dir + "/ports")) {
                String pd = dir + "/ports/" + p;
                List<IbDevice.Gid> gids = new ArrayList<>();
                for (String g : files.list(NAME, pd + "/gids")) {
                    String value = files.read(NAME, pd + "/gids/" + g).orElse(EMPTY_GID);
                    if (value.equals(EMPTY_GID)) {
                        continue;
                    }
                    String type = files.read(NAME, pd + "/gid_attrs/types/" + g).orElse(null);
                    String ndev = files.read(NAME, pd + "/gid_attrs/ndevs/" + g).orElse(null);
                    gids.add(new IbDevice.Gid(parse(g), value, type, ndev));
                }
                gids.sort(java.util.Comparator.comparingInt(IbDevice.Gid::index));
                ports.add(new IbDevice.Port(parse(p), afterColon(files.read(NAME, pd + "/state").orElse(null)),
                        afterColon(files.read(NAME, pd + "/phys_state").orElse(null)),
                        files.read(NAME, pd + "/rate").orElse(null), files.read(NAME, pd + "/link_layer").orElse(null),
                        gids));
            }
            List<String> netdevs = files.list(NAME, dir + "/device/net");
            if (netdevs.isEmpty()) {
                netdevs = files.read(NAME, dir + "/netdevs").map(s -> List.of(s.split("\\s+"))).orElse(List.of());
            }
            out.add(new IbDevice(dev, files.linkTarget(dir + "/device").orElse(null), netdevs, ports));
        }
        return out;
    }

    /** What /dev/infiniband holds (uverbs0, rdma_cm); null when the folder does not exist. */
    static List<String> devNodes(HostFiles files) {
        if (!files.isDirectory("/dev/infiniband")) {
            return null;
        }
        return files.list(NAME, "/dev/infiniband");
    }

    /** "4: ACTIVE" -> "ACTIVE", "5: LinkUp" -> "LinkUp". */
    private static String afterColon(String s) {
        if (s == null) {
            return null;
        }
        int i = s.indexOf(':');
        return i < 0 ? s.strip() : s.substring(i + 1).strip();
    }

    private static int parse(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
