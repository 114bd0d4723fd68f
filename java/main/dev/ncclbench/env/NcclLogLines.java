package dev.ncclbench.env;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The few NCCL log lines the probe needs. The full reader (transports, channels) is the diagnosis'
 * job; this one only knows the bootstrap line and WARN lines, in their forms from 2.5 to 2.30.
 */
public final class NcclLogLines {
    // "Bootstrap : Using [0]eth0:10.0.0.1<0>" (2.5-2.8), "Bootstrap : Using eth0:..." , "Bootstrap: Using eth0:10.0.0.1<0>" (>= 2.24)
    private static final Pattern BOOTSTRAP = Pattern.compile("Bootstrap ?: Using (?:\\[\\d+\\])?([^:\\s\\[]+):(\\S+)");
    private static final Pattern WARN = Pattern.compile("NCCL WARN (.*)$");

    private NcclLogLines() {
    }

    /** {interface, address} of the first bootstrap line, or null. */
    public static String[] bootstrap(List<String> lines) {
        for (String line : lines) {
            Matcher m = BOOTSTRAP.matcher(line);
            if (m.find()) {
                return new String[] {m.group(1), m.group(2)};
            }
        }
        return null;
    }

    /** The messages of WARN lines, without prefix. */
    public static List<String> warnings(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            Matcher m = WARN.matcher(line);
            if (m.find()) {
                out.add(m.group(1).trim());
            }
        }
        return out;
    }
}
