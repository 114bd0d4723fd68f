package dev.ncclbench.nccllog;

/**
 * What NCCL chose for each collective call, printed on rank 0 with NCCL_DEBUG_SUBSYS=TUNING (enqueue.cc):
 * "AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..31}" (2.24+), "1048576 Bytes -> Algo 1
 * proto 2 time 12.345000" (2.19-2.23: numbers, no collective), "AllReduce [Symmetric]: 1048576 Bytes -> Kernel
 * AllReduce_AGxLL_R nchannels 4 nthreads 512 nWorks 1" (2.28+), "AllGather [Copy Engine]: 1048576 Bytes ->
 * cudaMemcpy" (2.28+, copy-engine collectives). Kept as one mention per (collective, size, choice):
 * kind the collective ("" when not printed), value "SIZE ALGO PROTO" ("SIZE symmetric KERNEL" for the symmetric
 * kernels, "SIZE copy-engine cudaMemcpy..." for the copy engine), so a sweep's thousands of calls become one item per size.
 */
final class TuningLines {
    /** ncclAlgoStr / ncclAlgoToString order (2.18-2.29); PAT is 6 from 2.23. */
    private static final String[] ALGOS = {"TREE", "RING", "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS", "NVLS_TREE", "PAT"};
    private static final String[] PROTOS = {"LL", "LL128", "SIMPLE"};

    private TuningLines() {
    }

    static boolean parse(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        int arrow = m.indexOf(" Bytes -> ");
        if (arrow <= 0) {
            return false;
        }
        int colon = m.lastIndexOf(": ", arrow);
        String collective = colon > 0 ? m.substring(0, colon) : "";
        boolean symmetric = collective.endsWith(" [Symmetric]");
        if (symmetric) {
            collective = collective.substring(0, collective.length() - 12);
        }
        boolean copyEngine = collective.endsWith(" [Copy Engine]") || collective.endsWith(" [Hierarchical CE]");
        if (copyEngine) {
            collective = collective.substring(0, collective.lastIndexOf(" ["));
        }
        if (collective.indexOf(' ') >= 0) {
            return false; // anything else that is not a plain choice of algorithm
        }
        int sizeFrom = colon > 0 ? colon + 2 : 0;
        String size = m.substring(sizeFrom, arrow).trim();
        if (size.isEmpty() || size.length() > 18 || !size.chars().allMatch(Character::isDigit)) {
            return false; // sizes reach 8 GiB and more: ten digits and up
        }
        long bytes = Long.parseLong(size);
        String rest = m.substring(arrow + 10);
        String choice;
        if (symmetric && rest.startsWith("Kernel ")) {
            choice = "symmetric " + Text.tokenAfter(rest, "Kernel ");
        } else if (copyEngine) {
            // "AllGather [Copy Engine]: 1048576 Bytes -> cudaMemcpy; CE synchronization with NVLS", "[Hierarchical CE]:
            // ... -> RMA proxy + CE" (ce_coll.cc, 2.28+): the copy engines move the bytes, no SM kernel
            choice = rest.startsWith("RMA proxy") ? "copy-engine rma-proxy" : "copy-engine cudaMemcpy";
        } else if (rest.startsWith("Algo ")) {
            String algo = name(Text.tokenAfter(rest, "Algo "), ALGOS);
            String proto = name(Text.tokenAfter(rest, " proto "), PROTOS);
            if (algo.isEmpty() || proto.isEmpty()) {
                return false;
            }
            choice = algo + ' ' + proto;
        } else {
            return false;
        }
        acc.tuning(collective, bytes + " " + choice, p.host, file, lineNo);
        return true;
    }

    /** A name as printed (2.24+), or the index NCCL printed before it had names in this line. */
    private static String name(String token, String[] names) {
        if (token.isEmpty()) {
            return "";
        }
        if (Character.isDigit(token.charAt(0))) {
            int i = token.length() < 3 ? Integer.parseInt(token) : -1;
            return i >= 0 && i < names.length ? names[i] : "";
        }
        return token;
    }
}
