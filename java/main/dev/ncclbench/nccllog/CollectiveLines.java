package dev.ncclbench.nccllog;

/**
 * How the collectives were wired: "Connected all rings, use ring PXN 0 GDR 1" (2.24+), NVLS lines ("NVLS multicast
 * support is available on dev 0", "Connected NVLS tree"), and CollNet lines ("CollNet 00/0 : 0 [send] via
 * COLLNET/...", "rank 0 Connected CollNet", "Connected Collnet Chains"), each kept in its own collection.
 */
final class CollectiveLines {
    private CollectiveLines() {
    }

    static boolean parse(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        if (m.startsWith("Connected all rings")) {
            acc.ring(m, p.host, file, lineNo);
            return true;
        }
        if (m.indexOf("NVLS") >= 0 || m.indexOf(" nvls channels") >= 0 || m.indexOf(" coll channels") >= 0) {
            // "32 coll channels, 32 collnet channels, 16 nvls channels, ..." (2.19+): its collnet count is nChannels;
            // "8 coll channels, 8 p2p channels, ..." (2.8-2.17, no NVLS yet) is kept with it for the channel count
            acc.nvls(m, p.host, file, lineNo);
            return true;
        }
        if (m.indexOf("CollNet") >= 0 || m.indexOf("COLLNET") >= 0 || m.indexOf("Collnet") >= 0) {
            acc.collnet(m, p.host, file, lineNo);
            return true;
        }
        return false;
    }
}
