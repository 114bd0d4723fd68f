package dev.ncclbench.nccllog;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** NCCL-like lines generated on the fly, {@code target} bytes of them: big logs without a big file. */
final class GeneratedLog extends InputStream {
    private final long target;
    private long produced;
    private long n;
    private byte[] cur = new byte[0];
    private int pos;

    GeneratedLog(long target) {
        this.target = target;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (produced >= target) {
            return -1;
        }
        if (pos == cur.length) {
            n++;
            int rank = (int) (n % 5000);
            String l = switch ((int) (n % 4)) {
                case 0 -> "host" + (rank % 300) + ":" + rank + ":" + (rank + 7) + " [0] NCCL INFO Channel "
                        + (n % 32) + "/0 : " + rank + "[0] -> " + (rank + 1) + "[0] [send] via NET/IB/0/GDRDMA\n";
                case 1 -> "host" + (rank % 300) + ":" + rank + ":1 [0] misc.cc:" + n + " NCCL WARN warn " + n + "\n";
                case 2 -> "h:1:1 [0] NCCL INFO NCCL_X" + (n % 10000) + " set by environment to " + n + "\n";
                default -> "       8   2   float   sum   -1   12.34   0.00   0.00   0   11.90   0.00   0.00   0\n";
            };
            cur = l.getBytes(StandardCharsets.US_ASCII);
            pos = 0;
        }
        int k = Math.min(len, cur.length - pos);
        System.arraycopy(cur, pos, b, off, k);
        pos += k;
        produced += k;
        return k;
    }
}
