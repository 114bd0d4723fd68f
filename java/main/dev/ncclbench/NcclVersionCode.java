package dev.ncclbench;

/**
 * NCCL_VERSION_CODE both ways, as nccl.h's NCCL_VERSION macro encodes it: major*10000 + minor*100 + patch from 2.9,
 * major*1000 + minor*100 + patch before. The probe, the nccl-tests banner, doctor and the nccl-tests JSON read it.
 */
public final class NcclVersionCode {
    private NcclVersionCode() {
    }

    /** 23007 for 2.30.7, 2708 for 2.7.8. */
    public static int of(int major, int minor, int patch) {
        return major <= 2 && minor < 9 ? major * 1000 + minor * 100 + patch : major * 10000 + minor * 100 + patch;
    }

    /** "2.30.7" from 23007, "2.7.8" from 2708. */
    public static String text(long code) {
        return code >= 10000 ? code / 10000 + "." + (code % 10000) / 100 + "." + code % 100
                : code / 1000 + "." + (code % 1000) / 100 + "." + code % 100;
    }
}
