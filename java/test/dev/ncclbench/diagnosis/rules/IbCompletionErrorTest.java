package dev.ncclbench.diagnosis.rules;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IbCompletionErrorTest {
    @Test
    void theStatusOfEveryEraAndWhatItMeans() {
        assertEquals(12, IbCompletionError.status("NET/IB : Got completion from peer 1.2.3.4<5> with status=12 opcode=0"));
        assertEquals(4, IbCompletionError.status("NET/IB : Got completion from peer x with error 4, opcode 32564"));
        assertEquals(12, IbCompletionError.status("Got completion from peer x with status=IBV_WC_RETRY_EXC_ERR(12)"
                + " opcode=IBV_WC_SEND(0)"));
        assertEquals(-1, IbCompletionError.status("no status here"));
        assertEquals("IBV_WC_RETRY_EXC_ERR", IbCompletionError.STATUS[12]);
        assertEquals("IBV_WC_REM_ACCESS_ERR", IbCompletionError.STATUS[10]);
        assertTrue(IbCompletionError.meaning(12).contains("link or the peer is down"));
        assertTrue(IbCompletionError.meaning(10).contains("memory registration"));
    }
}
