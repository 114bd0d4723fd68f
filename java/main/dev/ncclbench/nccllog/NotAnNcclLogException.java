package dev.ncclbench.nccllog;

import java.io.IOException;

/**
 * A file or stream that holds no NCCL line in its first {@link NcclLogReader#SNIFF_BYTES} bytes and is not text
 * split into lines (a binary file, /dev/zero): reading on would never end or never find anything.
 */
public final class NotAnNcclLogException extends IOException {
    public NotAnNcclLogException(String message) {
        super(message);
    }
}
