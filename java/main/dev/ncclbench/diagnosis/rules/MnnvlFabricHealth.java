package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;

import java.util.ArrayList;
import java.util.List;

/**
 * The NVLink fabric's own health for each GPU, from "MNNVL busId 0x%lx fabric UUID %lx.%lx cliqueId 0x%x state %d
 * healthMask 0x%x" (init.cc, 2.27+). The mask is NVML's nvmlGpuFabricInfo_v2 healthMask, two bits a field with 1 =
 * true, 2 = false, 0 = not supported: degraded bandwidth (bits 0-1), route recovery in progress (2-3), route
 * unhealthy (4-5), access timeout recovery (6-7); bits 8-11 an incorrect configuration when 2 or more (1 = none).
 * So 0xaa is every field healthy and 0x0 a GPU that reports none (H100/H200): neither is a finding.
 */
public final class MnnvlFabricHealth extends BaseRule<Facts> {
    private static final String[] FIELDS = {"degraded NVLink bandwidth", "NVLink route recovery in progress",
            "unhealthy NVLink route", "NVLink access timeout recovery"};
    private static final String[] CONFIGS = {"", "", "incorrect system GUID", "incorrect chassis serial number",
            "no fabric partition", "insufficient NVLinks", "incompatible GPU firmware", "invalid location"};

    public MnnvlFabricHealth() {
        super("MNNVL-FABRIC-HEALTH", Severity.ERROR,
                "a GPU's NVLink fabric reports degraded bandwidth, an unhealthy route or a wrong configuration (MNNVL"
                        + " healthMask, GB200/GB300)", true);
    }

    @Override
    public List<Finding> check(Facts f) {
        List<String> bad = new ArrayList<>();
        List<String> ev = new ArrayList<>();
        boolean error = false;
        for (Mention m : f.evidence().topology()) {
            if (!m.kind().equals("mnnvl")) {
                continue;
            }
            long mask = hex(m.value(), "healthMask 0x");
            if (mask < 0) {
                continue;
            }
            List<String> what = new ArrayList<>();
            for (int i = 0; i < FIELDS.length; i++) {
                if (((mask >> (2 * i)) & 3) == 1) {
                    what.add(FIELDS[i]);
                    error |= i == 0 || i == 2;
                }
            }
            int config = (int) ((mask >> 8) & 15);
            if (config >= 2) {
                what.add(config < CONFIGS.length ? CONFIGS[config] : "fabric configuration error " + config);
                error = true;
            }
            if (!what.isEmpty()) {
                String gpu = "GPU " + m.value().split(" ")[1] + (m.host().isEmpty() ? "" : " on " + m.host());
                bad.add(gpu + ": " + String.join(", ", what));
                if (ev.size() < 8) {
                    ev.add(m.source() + ": MNNVL " + m.value());
                }
            }
        }
        if (bad.isEmpty()) {
            return List.of();
        }
        return List.of(finding(error ? Severity.ERROR : Severity.WARNING, "NVLink fabric health on " + bad.size()
                        + " GPU(s): " + String.join("; ", bad.stream().limit(4).toList()),
                "NVML's fabric health mask for these GPUs (what NCCL printed at init) says their NVLinks to the NVLink"
                        + " switches are not whole: traffic between them and the rest of the NVLink domain runs"
                        + " slower" + (error ? "" : " until the fabric manager finishes recovering") + ".",
                ev, List.of("nvidia-smi -q | grep -A 12 Fabric   # State, Status, Health (Bandwidth, Route Unhealthy...)",
                        "nvidia-smi nvlink -s   # per-link state and speed of these GPUs",
                        "check the fabric manager / NMX logs for the rack, then drain the node until its links are"
                                + " whole"),
                References.NET_DOC));
    }

    private static long hex(String s, String key) {
        int i = s.indexOf(key);
        if (i < 0) {
            return -1;
        }
        int b = i + key.length();
        int e = b;
        while (e < s.length() && e - b < 8 && Character.digit(s.charAt(e), 16) >= 0) {
            e++;
        }
        return e == b ? -1 : Long.parseLong(s.substring(b, e), 16);
    }
}
