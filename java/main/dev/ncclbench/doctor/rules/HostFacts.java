package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.LinkRates;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.IbDevice;
import dev.ncclbench.doctor.snapshot.NetLink;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Conclusions several rules share, computed from the snapshot alone (pure). */
final class HostFacts {
    private HostFacts() {
    }

    /** An interface NCCL could use for sockets: running, not loopback, with an address; and its rate if known. */
    record Usable(String name, Optional<LinkRates.Rate> rate) {
        double gbps() {
            return rate.map(LinkRates.Rate::gbps).orElse(-1.0);
        }

        String describe() {
            return name + rate.map(r -> " (" + r.text() + ", " + r.source() + ")").orElse(" (rate unknown)");
        }
    }

    static List<Usable> usable(HostSnapshot s) {
        List<Usable> out = new ArrayList<>();
        for (NetLink l : s.interfaces()) {
            if (l.running() && !l.loopback() && !l.addresses().isEmpty()) {
                out.add(new Usable(l.name(), LinkRates.of(s, l.name())));
            }
        }
        return out;
    }

    /** The fastest usable interface whose rate is known, if one is strictly faster than every other known one. */
    static Optional<Usable> fastest(HostSnapshot s) {
        List<Usable> known = usable(s).stream().filter(u -> u.rate().isPresent())
                .sorted(Comparator.comparingDouble(Usable::gbps).reversed()).toList();
        if (known.isEmpty()) {
            return Optional.empty();
        }
        if (known.size() > 1 && known.get(0).gbps() == known.get(1).gbps()) {
            return Optional.empty();
        }
        return Optional.of(known.get(0));
    }

    /** RDMA ports that are ACTIVE and LinkUp ({@link IbDevice.Port#up}). */
    static List<String> activePorts(HostSnapshot s) {
        List<String> out = new ArrayList<>();
        for (IbDevice d : s.ibDevices()) {
            for (IbDevice.Port p : d.ports()) {
                if (p.up()) {
                    out.add(d.name() + ":" + p.port());
                }
            }
        }
        return out;
    }

    /** Whether NCCL's IB transport has anything to use here (devices with an active port, reachable, enabled). */
    static boolean rdmaUsable(HostSnapshot s) {
        return !activePorts(s).isEmpty() && hasVerbsDevices(s) && !ibDisabled(s)
                && !IbHcaNoMatch.filtersEverything(s) && !netForcedSocket(s);
    }

    /** /dev/infiniband has uverbs nodes (what libibverbs opens). */
    static boolean hasVerbsDevices(HostSnapshot s) {
        return s.devInfiniband() != null && s.devInfiniband().stream().anyMatch(n -> n.startsWith("uverbs"));
    }

    static boolean ibDisabled(HostSnapshot s) {
        return s.setting("NCCL_IB_DISABLE").map(v -> nonZero(v.value())).orElse(false);
    }

    static boolean netForcedSocket(HostSnapshot s) {
        return s.setting("NCCL_NET").map(v -> v.value().equalsIgnoreCase("Socket")).orElse(false);
    }

    /** NCCL's integer parameters: strtoll, so "1", "01" and "1x" are 1; "" or garbage are the default (0). */
    static boolean nonZero(String v) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*([+-]?\\d+)").matcher(v);
        return m.find() && Long.parseLong(m.group(1)) != 0;
    }

    /** How many GPUs the driver lists. */
    static int gpus(HostSnapshot s) {
        return s.nvidia().gpus().size();
    }

    static String mib(long bytes) {
        return bytes >= 1L << 30 && bytes % (1L << 30) == 0 ? (bytes >> 30) + " GiB" : (bytes >> 20) + " MiB";
    }
}
