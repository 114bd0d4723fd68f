package dev.ncclbench.launch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real torchrun (PyTorch's CPU wheel) starting two ranks: README's
 * {@code torchrun --no-python --nproc_per_node=2 scripts/ncclbench sweep}, with a launcher for this JVM's class
 * path in place of scripts/ncclbench (the jar is not built while tests run). torchrun's store holds MASTER_PORT;
 * ncclbench's takes MASTER_PORT+1, so both are free before it starts. Skips with the reason without torch.
 */
class TorchrunTest {
    @TempDir
    Path dir;

    @Test
    void torchrunNoPythonRunsTwoRanks() throws Exception {
        assumeTrue(new ProcessBuilder("python3", "-c", "import torch.distributed.run").start().waitFor() == 0,
                "PyTorch is not installed (python3 -m pip install torch; .ci/run does, the CPU wheel)");
        Path launcher = dir.resolve("ncclbench");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + MultiProcessTest.javaCommand() + "' -Xmx384m -XX:+UseSerialGC -cp '"
                + MultiProcessTest.classPath() + "' dev.ncclbench.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path json = dir.resolve("torchrun.json");
        int port = MultiProcessTest.freePortPair();
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(List.of("python3", "-m", "torch.distributed.run", "--no-python",
                "--nproc_per_node=2", "--master_port=" + port, launcher.toString(), "sweep", "--backend", "socket",
                "-b", "1M", "-e", "4M", "-f", "2", "-n", "3", "-w", "1", "--no-progress", "--json", json.toString())))
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).directory(dir.toFile());
        pb.environment().clear();
        pb.environment().putAll(MultiProcessTest.cleanEnv());
        Process p = pb.start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        assertTrue(ended, "torchrun did not end within 120 s: " + out);
        assertEquals(0, p.exitValue(), out);
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        assertEquals(3, d.get("rows").size(), out);
        assertTrue(out.contains("Rank  1 Group  0"), "two ranks in one table: " + out);
    }
}
