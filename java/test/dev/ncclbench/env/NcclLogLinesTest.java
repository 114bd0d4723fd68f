package dev.ncclbench.env;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class NcclLogLinesTest {
    @Test
    void bootstrapLinesOfEveryVersion() {
        assertArrayEquals(new String[] {"eth0", "10.0.0.1<0>"},
                NcclLogLines.bootstrap(List.of("h:1:1 [0] NCCL INFO Bootstrap : Using [0]eth0:10.0.0.1<0>")));
        assertArrayEquals(new String[] {"ib0", "10.0.0.1<0>"},
                NcclLogLines.bootstrap(List.of("h:1:1 [0] NCCL INFO Bootstrap : Using ib0:10.0.0.1<0>")));
        assertArrayEquals(new String[] {"eth0", "192.0.2.2<0>"},
                NcclLogLines.bootstrap(List.of("x", "vm:5376:5376 [0] NCCL INFO Bootstrap: Using eth0:192.0.2.2<0>")));
        assertNull(NcclLogLines.bootstrap(List.of("NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>")));
    }

    @Test
    void warnLinesWithAndWithoutTimestampAndFunction() {
        assertEquals(List.of("Bootstrap : no socket interface found", "x"), NcclLogLines.warnings(List.of(
                "[2026-11-29 11:31:14] vm:5378:5378 [0] bootstrap.cc:126 (bootstrapNetInit) NCCL WARN Bootstrap : no socket interface found",
                "h:1:1 [0] misc.cc:1 NCCL WARN x", "h:1:1 [0] NCCL INFO y")));
    }
}
