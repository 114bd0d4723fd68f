package dev.ncclbench.doctor.snapshot;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The kernel's rate_show forms (drivers/infiniband/core/sysfs.c: "%d%s Gb/sec (%dX%s)"), InfiniBand and RoCE. */
class PortRateTest {
    @Test
    void everyFormTheKernelPrints() {
        assertEquals(new PortRate(400, 4, "NDR"), PortRate.parse("400 Gb/sec (4X NDR)"));
        assertEquals(new PortRate(200, 2, "NDR"), PortRate.parse("200 Gb/sec (2X NDR)"));
        assertEquals(new PortRate(200, 4, "HDR"), PortRate.parse("200 Gb/sec (4X HDR)\n"));
        assertEquals(new PortRate(100, 4, "EDR"), PortRate.parse("100 Gb/sec (4X EDR)"));
        assertEquals(new PortRate(25, 1, "EDR"), PortRate.parse("25 Gb/sec (1X EDR)"));
        assertEquals(new PortRate(2.5, 1, "SDR"), PortRate.parse("2.5 Gb/sec (1X SDR)"));
        assertEquals(new PortRate(10, 4, ""), PortRate.parse("10 Gb/sec (4X)"), "kernels before SDR was named");
        assertEquals(new PortRate(40, 4, "FDR10"), PortRate.parse("40 Gb/sec (4X FDR10)"));
        assertEquals(new PortRate(800, 4, "XDR"), PortRate.parse("800 Gb/sec (4X XDR)"));
        assertEquals(new PortRate(56, 0, ""), PortRate.parse("56 Gb/sec"), "a rate without its width still has a number");
        assertFalse(PortRate.parse("garbage").known());
        assertFalse(PortRate.parse(null).known());
    }

    @Test
    void itPrintsBackAsTheKernelDoes() {
        assertEquals("200 Gb/sec (2X NDR)", PortRate.parse("200 Gb/sec (2X NDR)").text());
        assertEquals("2.5 Gb/sec (1X SDR)", PortRate.parse("2.5 Gb/sec (1X SDR)").text());
        assertEquals("10 Gb/sec (4X)", PortRate.parse("10 Gb/sec (4X)").text());
        assertEquals("unknown", PortRate.UNKNOWN.text());
    }
}
