package dev.ncclbench.nccllog;

/**
 * NCCL_ variables: NCCL's own "NCCL_NET_GDR_LEVEL set by environment to PHB" (param.cc, paths.cc) and "NCCL_IB_HCA set
 * to mlx5_0" (net_ib.cc, socket.cc: the string settings NCCL reads without the param macro), origin "nccl"; and
 * settings pasted on a command line: "NCCL_SOCKET_IFNAME=eth0 all_reduce_perf", "-x NCCL_IB_HCA=mlx5_0", "export
 * NCCL_DEBUG=INFO".
 */
final class EnvLines {
    private EnvLines() {
    }

    /**
     * NCCL's "X set by environment to V." INFO line, and its "NCCL_X set to V" ("TUNER/Plugin: NCCL_TUNER_PLUGIN set
     * to V" too); not "Comm config X set to V" (a config field) nor enqueue's " NCCL_ALGO was set to".
     */
    static boolean setByEnvironment(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        String marker = " set by environment to ";
        int sbe = m.indexOf(marker);
        if (sbe <= 0) {
            marker = " set to ";
            sbe = m.indexOf(marker);
        }
        if (sbe <= 0) {
            return false;
        }
        String name = m.substring(m.lastIndexOf(' ', sbe - 1) + 1, sbe);
        if (marker.equals(" set to ") && !name.startsWith("NCCL_")) {
            return false;
        }
        String value = m.substring(sbe + marker.length()).trim();
        if (value.endsWith(".")) {
            value = value.substring(0, value.length() - 1);
        }
        acc.env(name, value, NcclLogEvidence.EnvSetting.FROM_NCCL, file, lineNo);
        return true;
    }

    /** Every NAME=value with an NCCL_ name in a pasted line. */
    static boolean commandLine(String l, String file, long lineNo, Accumulator acc) {
        boolean any = false;
        int from = 0;
        while (true) {
            int i = l.indexOf("NCCL_", from);
            if (i < 0) {
                return any;
            }
            from = i + 5;
            if (i > 0) {
                char before = l.charAt(i - 1);
                if (Character.isLetterOrDigit(before) || before == '_') {
                    continue;
                }
            }
            int e = i + 5;
            while (e < l.length() && (Character.isUpperCase(l.charAt(e)) || Character.isDigit(l.charAt(e))
                    || l.charAt(e) == '_')) {
                e++;
            }
            if (e >= l.length() || l.charAt(e) != '=' || e == i + 5) {
                continue;
            }
            int ve = e + 1;
            while (ve < l.length() && !Character.isWhitespace(l.charAt(ve))) {
                ve++;
            }
            String value = l.substring(e + 1, ve);
            while (!value.isEmpty() && ".,;".indexOf(value.charAt(value.length() - 1)) >= 0) {
                value = value.substring(0, value.length() - 1); // prose around a pasted setting
            }
            if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')
                    && value.charAt(value.length() - 1) == value.charAt(0)) {
                value = value.substring(1, value.length() - 1);
            }
            acc.env(l.substring(i, e), value, NcclLogEvidence.EnvSetting.FROM_COMMAND_LINE, file, lineNo);
            any = true;
            from = ve;
        }
    }
}
