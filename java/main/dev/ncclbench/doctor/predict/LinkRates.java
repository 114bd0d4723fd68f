package dev.ncclbench.doctor.predict;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.IbDevice;
import dev.ncclbench.doctor.snapshot.NetLink;
import dev.ncclbench.doctor.snapshot.SiteLink;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How fast an interface is, and who says so: a site's fabric catalog first (veth and some NICs report nothing
 * true), then /sys/class/net/NAME/speed, then the rate of the RDMA port an IPoIB interface sits on.
 */
public final class LinkRates {
    private LinkRates() {
    }

    /** A rate in Gbit/s and its source ("/sys/class/net/eth0/speed", "fabric-catalog.txt:40"). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Rate(double gbps, String source) {
        /** "10 Gbit/s" or "500 Mbit/s". */
        public String text() {
            return text(gbps);
        }

        /** How doctor writes any link rate in its own words (sysfs's "400 Gb/sec (4X NDR)" is quoted as it is). */
        public static String text(double gbps) {
            return gbps >= 1 ? trim(gbps) + " Gbit/s" : trim(gbps * 1000) + " Mbit/s";
        }

        private static String trim(double v) {
            return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
        }
    }

    public static Optional<Rate> of(HostSnapshot s, String name) {
        Optional<NetLink> link = s.link(name);
        for (SiteLink site : s.siteLinks()) {
            if (site.covers(List.of(name), addresses(link))) {
                return Optional.of(new Rate(site.gbps(), site.source() + " (site: " + site.match() + " is " + site.fabric() + ")"));
            }
        }
        if (link.isPresent() && link.get().speedMbps() != null && !"veth".equals(link.get().driver())) {
            return Optional.of(new Rate(link.get().speedMbps() / 1000.0, "/sys/class/net/" + name + "/speed"));
        }
        for (IbDevice d : s.ibDevices()) {
            if (d.netdevs().contains(name)) {
                for (IbDevice.Port p : d.ports()) {
                    if (p.rateGbps() > 0) {
                        return Optional.of(new Rate(p.rateGbps(), "/sys/class/infiniband/" + d.name() + "/ports/" + p.port() + "/rate"));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The addresses of an interface, for a site line that names a subnet. */
    static List<String> addresses(Optional<NetLink> link) {
        return link.map(l -> l.addresses().stream().map(NetLink.Address::address).toList()).orElse(List.of());
    }
}
