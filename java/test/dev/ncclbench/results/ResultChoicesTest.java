package dev.ncclbench.results;

import dev.ncclbench.Goldens;
import dev.ncclbench.choices.ChoicesReader;
import dev.ncclbench.choices.NcclChoices;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NCCL's choices in the result file: written through any sink chain, read back equal, left out without a log. */
class ResultChoicesTest {
    @TempDir
    Path dir;

    private Path write(NcclChoices choices) {
        Path file = dir.resolve(choices == null ? "no-log.json" : "log.json");
        ResultSink sink = ResultSinks.tee(ResultSinks.text(new PrintWriter(new StringWriter()), IterationClock.HOST),
                ResultSinks.json(file, Clock.systemUTC()));
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        sink.beginCollective("all_reduce");
        Fixtures.allReduceRows().forEach(sink::row);
        sink.endCollective("all_reduce");
        if (choices != null) {
            sink.choices(choices);
        }
        sink.finish("ok", null);
        return file;
    }

    @Test
    void choicesRoundTrip() throws IOException {
        NcclChoices c = ChoicesReader.of(NcclLogReader.readAll(List.of(Goldens.resources()
                .resolve("choices/nvls-8gpu-2.28.log"))));
        Path file = write(c);
        assertTrue(Files.readString(file).contains("\"nccl_choices\""));
        NcclChoices back = ResultFiles.read(file).ncclChoices();
        assertEquals(c, back);
        assertEquals("NVLS SIMPLE", back.tuning().get("AllReduce").get(1L << 30));
    }

    @Test
    void aRunWithoutALogLeavesTheFieldOut() throws IOException {
        Path file = write(null);
        assertFalse(Files.readString(file).contains("nccl_choices"));
        assertNull(ResultFiles.read(file).ncclChoices());
    }
}
