package dev.ncclbench.sweep;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which sizes the code warm-up calls: the stand-in for a dear first size, and the steps besides it. */
class CodeWarmupTest {
    /** The socket backend's paths on 2 ranks: rd to 64 KiB, the ring on the rank's thread to 32 MiB, then threads. */
    private static final LongFunction<String> SOCKET = size -> size <= (64 << 10) ? "rd"
            : size <= (32 << 20) ? "ring, polled" : "ring, threads";

    @Test
    void aDearFirstSizeIsWarmedAtTheSmallestSizeOnItsPathWithinFourSteps() {
        assertEquals(128 << 10, CodeWarmup.standIn(2 << 20, SOCKET), "2 MiB: 512 KiB and 128 KiB are ring, 32 KiB is rd");
        assertEquals(128 << 10, CodeWarmup.standIn(8 << 20, SOCKET));
        assertEquals(128 << 10, CodeWarmup.standIn(512 << 10, SOCKET));
        assertEquals(128 << 20, CodeWarmup.standIn(32L << 30, SOCKET), "at most four 4x steps down: 32 GiB / 256");
    }

    @Test
    void aCheapFirstSizeAPathChangeBelowItOrABackendThatCannotSayKeepsTheFirstSize() {
        assertEquals(256 << 10, CodeWarmup.standIn(256 << 10, SOCKET), "below 512 KiB a call is cheap enough");
        assertEquals(64 << 20, CodeWarmup.standIn(64 << 20, SOCKET), "16 MiB runs on the rank's thread, 64 MiB does not");
        assertEquals(4 << 20, CodeWarmup.standIn(4 << 20, size -> null));
        // a path that changes and comes back is not the same code in between
        LongFunction<String> gap = size -> size == (1 << 20) ? "other" : "same";
        assertEquals(4 << 20, CodeWarmup.standIn(4 << 20, gap));
    }

    @Test
    void stepsAreEvery16xAndTheLargestSizeUpTo64MiB() {
        assertEquals(List.of(128L, 2048L, 32768L, 524288L), CodeWarmup.steps(by4(8, 512 << 10)),
                "the largest size is a step already");
        assertEquals(List.of(8L << 20), CodeWarmup.steps(by4(2 << 20, 8 << 20)),
                "2 to 8 MiB: 8 MiB is no 16x step, and its slices need a second piece");
        assertEquals(List.of(32L << 20), CodeWarmup.steps(by4(2 << 20, 32 << 20)));
        assertEquals(List.of(128L, 2048L, 32768L, 524288L, 8L << 20, 32L << 20), CodeWarmup.steps(by4(8, 1L << 30)),
                "the largest up to 64 MiB is 32 MiB; past it nothing: those calls take seconds");
        assertEquals(List.of(), CodeWarmup.steps(List.of(4096L)));
    }

    @Test
    void theRehearsalRunsTheSweepsCheapLoopsInItsOrderWithinItsBudget() {
        assertEquals(by4(8, 512 << 10), CodeWarmup.rehearsed(by4(8, 512 << 10), 200),
                "8 B-512 KiB at -n 200: about 320 ms by the model, every size");
        assertEquals(List.of(2L << 20, 8L << 20), CodeWarmup.rehearsed(by4(2 << 20, 32 << 20), 20),
                "2-32 MiB at -n 20: a 32 MiB loop in both placements is 1.3 s by the model");
        assertEquals(List.of(), CodeWarmup.rehearsed(List.of(256L << 20), 5), "one loop of 256 MiB takes seconds");
        assertEquals(by4(8, 32 << 10), CodeWarmup.rehearsed(by4(8, 8 << 20), 1000),
                "at -n 1000 128 KiB would pass the 500 ms of all (250 ms before it), 512 KiB the 400 ms of one size");
        // the budget is for all: 8 B-8 KiB by 2 at -n 5000 is about 100 ms a size, and the fifth passes 500 ms
        List<Long> by2 = new ArrayList<>();
        for (long s = 8; s <= 8192; s *= 2) {
            by2.add(s);
        }
        assertEquals(by2.subList(0, 4), CodeWarmup.rehearsed(by2, 5000));
    }

    private static List<Long> by4(long from, long to) {
        List<Long> sizes = new ArrayList<>();
        for (long s = from; s <= to; s *= 4) {
            sizes.add(s);
        }
        return sizes;
    }
}
