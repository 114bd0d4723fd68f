package dev.ncclbench.gate;

import dev.ncclbench.Goldens;
import dev.ncclbench.results.ResultInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gate's table without its verdict line, for preflight, whose own verdict line carries the gate's reason. */
class GateTextTest {
    @Test
    void theTableIsTheTextWithoutItsVerdictLine(@TempDir Path dir) {
        Path run = Goldens.resources().resolve("golden/json/old/result-v1.json");
        GateReport r = new GateJudge(dir.resolve("no-baselines"), GateOptions.defaults(), null, null, null, Set.of(), null)
                .judge(run.toString(), ResultInput.read(run), null);
        StringWriter whole = new StringWriter();
        GateText.write(r, new PrintWriter(whole));
        StringWriter table = new StringWriter();
        GateText.writeTable(r, new PrintWriter(table));
        String verdict = r.verdict().name();
        assertTrue(r.verdictLine().startsWith(verdict + ": "), r.verdictLine());
        assertEquals(table + r.verdictLine() + System.lineSeparator(), whole.toString());
        assertTrue(table.toString().startsWith("# gate: "), table.toString());
        assertFalse(table.toString().lines().anyMatch(l -> l.startsWith(verdict)), table.toString());
    }
}
