package dev.ncclbench.backend.socket;

import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank's own long work, filling its buffer and checking what it received, stops once its communicator is aborted
 * (what the first Ctrl-C does): a check of 256 MiB on 4 ranks of 2 busy cores ran on for 17 s after it. On a real
 * 2-rank mesh over loopback; the abort comes before the work, so nothing races.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AbortedWorkTest {
    private static final Collective ALL_REDUCE = Collectives.byName("all_reduce");

    @Test
    void fillAndCheckStopOnAnAbortedCommunicator() throws Exception {
        try (LoopbackPair pair = new LoopbackPair()) {
            SocketRankComm comm = pair.comm0;
            // 16 MiB: 4M elements, 64 of the pieces between which the work looks at the abort flag
            Operation op = comm.prepare(new Call(ALL_REDUCE, ALL_REDUCE.counts(4L << 20, 4, 2), DataType.FLOAT,
                    ReduceOp.SUM, -1, false));
            op.fill();
            assertTrue(op.verify() > 0, "the check reads every element: nothing was reduced yet, so all are wrong");
            comm.abort();
            BackendException fill = assertThrows(BackendException.class, op::fill);
            assertTrue(fill.getMessage().contains("aborted"), fill.getMessage());
            BackendException check = assertThrows(BackendException.class, op::verify);
            assertTrue(check.getMessage().contains("aborted"), check.getMessage());
        }
    }
}
