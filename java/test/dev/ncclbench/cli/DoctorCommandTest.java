package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import dev.ncclbench.env.Host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `ncclbench doctor` end to end: exit codes, the one line on stderr, JSON, --save/--snapshot, --compare, --ignore. */
class DoctorCommandTest {
    private static final Path HOSTS = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources", "doctor", "hosts");
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out), new PrintWriter(err));
    }

    /** `ncclbench doctor ARGS` with its own environment, as the command line hands it (the JVM's cannot be changed). */
    private int runWithEnv(Map<String, String> env, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "doctor";
        System.arraycopy(args, 0, all, 1, args.length);
        return Main.run(all, new PrintWriter(out), new PrintWriter(err), Host.of(env));
    }

    private static String host(String name) {
        return HOSTS.resolve(name).toString();
    }

    @Test
    void anIfnameThatMatchesNothingExits3NamingTheVariableTheInterfacesAndTheFix() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("NCCL_SOCKET_IFNAME", "doesnotexist0");
        assertEquals(3, runWithEnv(env, "--no-probe-nccl"));
        String e = err.toString();
        assertTrue(e.contains("SOCKET-IFNAME-NO-MATCH") && e.contains("NCCL_SOCKET_IFNAME=doesnotexist0"), e);
        assertTrue(e.contains("matches none of the interfaces here (lo"), e);
        assertTrue(e.contains("would work") && e.contains("fix: export NCCL_SOCKET_IFNAME="), e);
        assertEquals(1, e.strip().lines().count(), e);
        assertTrue(out.toString().contains("bootstrap:          none"), out.toString());
    }

    @Test
    void jsonCarriesTheFindingsAndThePredictedInterfaces() throws Exception {
        assertEquals(0, run("doctor", "--json", "-", "--root", host("a100-two-nic")));
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        assertEquals("ncclbench.doctor", doc.get("kind").asText());
        assertEquals(2, doc.get("schema_version").asInt());
        assertEquals("eth0", doc.get("bootstrap").get("interface").asText());
        assertEquals("10.0.0.1", doc.get("bootstrap").get("address").asText());
        assertTrue(doc.get("bootstrap").get("why").asText().contains("kernel order"));
        assertEquals("eth0", doc.get("socket_interfaces").get(0).get("interface").asText());
        assertEquals("rdma0", doc.get("socket_interfaces").get(1).get("interface").asText());
        assertEquals("SOCKET-DEFAULT-SLOW-NIC", doc.get("findings").get(0).get("id").asText());
        assertFalse(out.toString().contains("\u001b["), "no colour when not on a terminal");
    }

    @Test
    void failOnWarnAndIgnore() {
        assertEquals(3, run("doctor", "--root", host("a100-two-nic"), "--fail-on", "warn"));
        assertTrue(err.toString().contains("SOCKET-DEFAULT-SLOW-NIC"), err.toString());
        assertEquals(0, run("doctor", "--root", host("a100-two-nic"), "--fail-on", "warn", "--ignore", "SOCKET-DEFAULT-SLOW-NIC"));
        assertEquals(3, run("doctor", "--root", host("container-no-devices")));
        assertEquals(0, run("doctor", "--root", host("container-no-devices"), "--ignore", "RDMA-NO-DEVICE-ACCESS",
                "--ignore", "SHM-SMALL", "--ignore", "MEMLOCK-LIMITED"));
    }

    @Test
    void badInputIsExit2WithOneLine(@TempDir Path dir) throws Exception {
        assertEquals(2, run("doctor", "--ignore", "NO-SUCH-RULE", "--no-probe-nccl"));
        assertTrue(err.toString().contains("--ignore NO-SUCH-RULE: no rule has that id"), err.toString());
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{ not json");
        err.getBuffer().setLength(0);
        assertEquals(2, run("doctor", "--snapshot", bad.toString()));
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains("corrupt snapshot"), err.toString());
        assertEquals(2, run("doctor", "--root", dir.toString()));
        assertEquals(2, run("doctor", "--fail-on", "sometimes", "--no-probe-nccl"));
        err.getBuffer().setLength(0);
        // --snapshot, --root and --compare each name what to judge: picocli's one line says they exclude each other
        assertEquals(2, run("doctor", "--snapshot", bad.toString(), "--root", dir.toString()));
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains("mutually exclusive"), err.toString());
        assertFalse(err.toString().contains("\tat "), "no stack trace");
    }

    @Test
    void saveThenJudgeTheSnapshotThenCompareNodes(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        assertEquals(0, run("doctor", "--root", host("a100-two-nic"), "--save", a.toString()));
        assertEquals(3, run("doctor", "--root", host("laptop-ib-disable"), "--save", b.toString()));
        assertTrue(Files.readString(a).contains("\"kind\" : \"ncclbench.host\""));
        assertEquals(3, run("doctor", "--snapshot", b.toString()));
        out.getBuffer().setLength(0);
        assertEquals(0, run("doctor", "--compare", a.toString(), b.toString()));
        String o = out.toString();
        assertTrue(o.contains("NODES-NCCL-ENV-DIFFERS") && o.contains("NCCL_IB_DISABLE is set on some nodes only"), o);
        assertTrue(o.contains("NCCL will bootstrap on different interfaces"), o);
        assertEquals(3, run("doctor", "--compare", a.toString(), b.toString(), "--fail-on", "warn"));
    }

    @Test
    void rulesListsDoctorsBooks() {
        assertEquals(0, run("rules"));
        String o = out.toString();
        assertTrue(o.contains("doctor (") && o.contains("SOCKET-IFNAME-NO-MATCH") && o.contains("GDR-NO-PEER-MEMORY"), o);
        assertTrue(o.contains("doctor --compare (") && o.contains("NODES-VERSIONS-DIFFER"), o);
    }
}
