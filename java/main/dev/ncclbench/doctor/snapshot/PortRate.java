package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An RDMA port's rate as the kernel prints it in /sys/class/infiniband/DEV/ports/N/rate (rate_show in
 * drivers/infiniband/core/sysfs.c, "%d%s Gb/sec (%dX%s)"): "400 Gb/sec (4X NDR)", "200 Gb/sec (2X NDR)",
 * "100 Gb/sec (4X EDR)", "25 Gb/sec (1X EDR)", "2.5 Gb/sec (1X SDR)", and before kernels named SDR, "10 Gb/sec (4X)".
 * A RoCE port prints the same form: the driver maps its Ethernet speed to lanes and a lane speed (100GbE is "100
 * Gb/sec (4X EDR)", 25GbE "25 Gb/sec (1X EDR)"). A port that is down prints a meaningless default ("40 Gb/sec (4X
 * QDR)", "10 Gb/sec (4X SDR)"): read a rate only on an ACTIVE port.
 *
 * @param gbps  the rate in Gbit/s; 0 when unreadable
 * @param width the active width in lanes (1, 2, 4, 8, 12); 0 when unreadable
 * @param speed the lane speed's name (SDR DDR QDR FDR10 FDR EDR HDR NDR XDR); "" when the kernel printed none
 */
public record PortRate(double gbps, int width, String speed) {
    private static final Pattern FORM = Pattern.compile("^\\s*(\\d+(?:\\.\\d+)?)\\s*Gb/sec\\s*\\((\\d+)X\\s*([A-Za-z0-9]*)\\s*\\)\\s*$");
    private static final Pattern NUMBER = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*Gb");
    public static final PortRate UNKNOWN = new PortRate(0, 0, "");

    public PortRate {
        speed = speed == null ? "" : speed;
    }

    /** The kernel's text, or anything with "N Gb" in it; {@link #UNKNOWN} when there is no number. */
    public static PortRate parse(String text) {
        if (text == null) {
            return UNKNOWN;
        }
        Matcher m = FORM.matcher(text);
        if (m.matches()) {
            return new PortRate(Double.parseDouble(m.group(1)), Integer.parseInt(m.group(2)),
                    m.group(3).toUpperCase(Locale.ROOT));
        }
        Matcher n = NUMBER.matcher(text);
        return n.find() ? new PortRate(Double.parseDouble(n.group(1)), 0, "") : UNKNOWN;
    }

    @JsonIgnore
    public boolean known() {
        return gbps > 0;
    }

    /** "400 Gb/sec (4X NDR)", as the kernel prints it. */
    @com.fasterxml.jackson.annotation.JsonProperty("text")
    public String text() {
        if (!known()) {
            return "unknown";
        }
        String g = gbps == Math.rint(gbps) ? String.valueOf((long) gbps) : String.format(Locale.ROOT, "%.1f", gbps);
        return width == 0 ? g + " Gb/sec" : g + " Gb/sec (" + width + "X" + (speed.isEmpty() ? "" : " " + speed) + ")";
    }
}
