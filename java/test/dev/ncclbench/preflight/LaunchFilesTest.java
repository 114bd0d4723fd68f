package dev.ncclbench.preflight;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/launch/: the Kubernetes manifests against the part of the API schema they use (kubectl is not on CI's
 * machine: a YAML schema check instead), and the shell scripts through bash -n.
 */
class LaunchFilesTest {
    static final Path LAUNCH = Path.of(System.getProperty("ncclbench.basedir", "."), "scripts", "launch");
    static final Set<String> CONTAINER = Set.of("name", "image", "command", "args", "env", "resources", "volumeMounts",
            "ports", "securityContext", "workingDir", "imagePullPolicy");
    static final Set<String> MPIJOB_SPEC = Set.of("slotsPerWorker", "runPolicy", "mpiReplicaSpecs", "sshAuthMountPath",
            "launcherCreationPolicy", "mpiImplementation");
    static final Set<String> POD_SPEC = Set.of("restartPolicy", "initContainers", "containers", "volumes", "subdomain",
            "hostNetwork", "nodeSelector", "tolerations", "hostname", "runtimeClassName");

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> docs(Path f) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(f, StandardCharsets.UTF_8))) {
            out.add((Map<String, Object>) o);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o, String where) {
        assertTrue(o instanceof Map, where + " must be a mapping");
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o, String where) {
        assertTrue(o instanceof List && !((List<Object>) o).isEmpty(), where + " must be a non-empty list");
        return (List<Object>) o;
    }

    static void podSpec(Map<String, Object> spec, String where) {
        for (String k : spec.keySet()) {
            assertTrue(POD_SPEC.contains(k), where + ": unknown pod spec field " + k);
        }
        assertTrue(Set.of("Never", "OnFailure", "Always").contains(spec.getOrDefault("restartPolicy", "Always")), where);
        List<String> volumes = new ArrayList<>();
        if (spec.get("volumes") != null) {
            for (Object v : list(spec.get("volumes"), where + ".volumes")) {
                volumes.add((String) map(v, where + ".volumes[]").get("name"));
            }
        }
        for (String key : List.of("initContainers", "containers")) {
            if (spec.get(key) == null) {
                assertFalse(key.equals("containers"), where + " needs containers");
                continue;
            }
            for (Object c : list(spec.get(key), where + "." + key)) {
                Map<String, Object> m = map(c, where + "." + key + "[]");
                for (String k : m.keySet()) {
                    assertTrue(CONTAINER.contains(k), where + ": unknown container field " + k);
                }
                assertTrue(m.get("name") instanceof String && m.get("image") instanceof String, where + ": name, image");
                if (m.get("volumeMounts") != null) {
                    for (Object vm : list(m.get("volumeMounts"), "volumeMounts")) {
                        Map<String, Object> mm = map(vm, "volumeMount");
                        assertTrue(volumes.contains((String) mm.get("name")), where + ": mount of undeclared volume "
                                + mm.get("name"));
                        assertTrue(((String) mm.get("mountPath")).startsWith("/"), where + ": mountPath");
                    }
                }
                if (m.get("command") != null) {
                    list(m.get("command"), "command").forEach(x -> assertTrue(x instanceof String, where + ": command"));
                }
            }
        }
    }

    @Test
    void kubernetesManifestsMatchTheSchemaTheyUse() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(LAUNCH.resolve("k8s"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertEquals(3, files.size(), files.toString());
        int pods = 0;
        for (Path f : files) {
            for (Map<String, Object> d : docs(f)) {
                String where = f.getFileName() + " " + d.get("kind");
                assertTrue(map(d.get("metadata"), where).get("name") instanceof String, where + ": metadata.name");
                Map<String, Object> spec = map(d.get("spec"), where + ".spec");
                switch ((String) d.get("kind")) {
                    case "Pod" -> {
                        assertEquals("v1", d.get("apiVersion"), where);
                        podSpec(spec, where);
                        pods++;
                    }
                    case "Job" -> {
                        assertEquals("batch/v1", d.get("apiVersion"), where);
                        if ("Indexed".equals(spec.get("completionMode"))) {
                            assertTrue(spec.get("completions") instanceof Integer, where + ": Indexed needs completions");
                        }
                        Map<String, Object> pod = map(map(spec.get("template"), where + ".template").get("spec"), where);
                        assertTrue(Set.of("Never", "OnFailure").contains(pod.get("restartPolicy")), where
                                + ": a Job's pods restart Never or OnFailure");
                        podSpec(pod, where);
                        pods++;
                    }
                    case "Service" -> {
                        assertEquals("v1", d.get("apiVersion"), where);
                        for (Object p : list(spec.get("ports"), where + ".ports")) {
                            assertTrue(map(p, where).get("port") instanceof Integer, where + ": port");
                        }
                    }
                    case "MPIJob" -> {
                        assertEquals("kubeflow.org/v2beta1", d.get("apiVersion"), where);
                        for (String k : spec.keySet()) {
                            assertTrue(MPIJOB_SPEC.contains(k), where + ": unknown MPIJob spec field " + k);
                        }
                        assertTrue(spec.get("slotsPerWorker") instanceof Integer, where + ": slotsPerWorker");
                        Map<String, Object> replicas = map(spec.get("mpiReplicaSpecs"), where + ".mpiReplicaSpecs");
                        assertEquals(Set.of("Launcher", "Worker"), replicas.keySet(), where);
                        for (Map.Entry<String, Object> r : replicas.entrySet()) {
                            Map<String, Object> rs = map(r.getValue(), where + "." + r.getKey());
                            assertTrue(rs.get("replicas") instanceof Integer, where + ": replicas");
                            podSpec(map(map(rs.get("template"), where + ".template").get("spec"), where), where + " " + r.getKey());
                            pods++;
                        }
                    }
                    default -> throw new AssertionError(where + ": unexpected kind");
                }
            }
        }
        assertEquals(4, pods);
    }

    /** Where GPUs and RDMA NICs run: /dev/shm memory-backed and mounted, IPC_LOCK, in every manifest's GPU container. */
    @Test
    void gpuContainersGetSharedMemoryAndIpcLock() throws IOException {
        int gpuContainers = 0;
        try (Stream<Path> s = Files.list(LAUNCH.resolve("k8s"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                for (Map<String, Object> d : docs(f)) {
                    for (Map<String, Object> pod : pods(d)) {
                        boolean shmVolume = pod.get("volumes") != null && list(pod.get("volumes"), "volumes").stream()
                                .map(v -> map(v, "volume")).anyMatch(v -> "dshm".equals(v.get("name"))
                                        && v.get("emptyDir") instanceof Map<?, ?> e && "Memory".equals(e.get("medium")));
                        for (String key : List.of("initContainers", "containers")) {
                            if (pod.get(key) == null) {
                                continue;
                            }
                            for (Object c : list(pod.get(key), key)) {
                                Map<String, Object> m = map(c, "container");
                                if (!String.valueOf(m.get("resources")).contains("nvidia.com/gpu")) {
                                    continue;
                                }
                                gpuContainers++;
                                String where = f.getFileName() + " " + m.get("name");
                                assertTrue(shmVolume, where + ": a memory-backed dshm volume");
                                assertTrue(String.valueOf(m.get("volumeMounts")).contains("mountPath=/dev/shm"), where + ": /dev/shm");
                                Map<String, Object> sc = map(m.get("securityContext"), where + ".securityContext");
                                assertEquals(List.of("IPC_LOCK"), map(sc.get("capabilities"), where).get("add"), where);
                            }
                        }
                    }
                }
                assertTrue(text.contains("# rdma/rdma_shared_device_a: 1") || !text.contains("nvidia.com/gpu"),
                        f + ": the RDMA device plugin's resource, commented");
            }
        }
        assertEquals(4, gpuContainers);
    }

    /**
     * A manifest of several processes makes a Secret for each run (a kept one would make every run "the same job"), its
     * value never on kubectl's command line, and its pods read it from a file only their user reads (defaultMode 0400),
     * never from the environment: mpirun would carry an environment variable in its unencrypted launch message.
     */
    @Test
    void multiProcessManifestsReadThisRunsSecretFromAFileOnlyItsOwnerReads() throws IOException {
        int checked = 0;
        try (Stream<Path> s = Files.list(LAUNCH.resolve("k8s"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (!text.contains("--rendezvous") && !text.contains("MASTER_ADDR")) {
                    continue; // one process: a random secret of its own
                }
                checked++;
                String where = f.getFileName().toString();
                assertTrue(text.contains("kubectl delete secret "), where + ": a new Secret each run");
                assertTrue(text.contains("openssl rand -hex 32 | kubectl create secret generic ")
                        && text.contains(" --from-file=token=/dev/stdin"), where + ": made with its value off the command line");
                assertFalse(text.contains("--from-literal"), where);
                assertFalse(text.contains("secretKeyRef"), where + ": not in the environment");
                assertTrue(text.contains("NCCLBENCH_TOKEN_FILE"), where);
                int secretVolumes = 0;
                for (Map<String, Object> d : docs(f)) {
                    for (Map<String, Object> pod : pods(d)) {
                        if (pod.get("volumes") == null) {
                            continue;
                        }
                        for (Object v : list(pod.get("volumes"), "volumes")) {
                            Object secret = map(v, "volume").get("secret");
                            if (secret != null) {
                                secretVolumes++;
                                assertEquals(0400, map(secret, where).get("defaultMode"), where + ": readable by its owner alone");
                            }
                        }
                    }
                }
                assertEquals(1, secretVolumes, where);
            }
        }
        assertEquals(2, checked);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> pods(Map<String, Object> d) {
        Map<String, Object> spec = (Map<String, Object>) d.get("spec");
        List<Map<String, Object>> out = new ArrayList<>();
        switch ((String) d.get("kind")) {
            case "Pod" -> out.add(spec);
            case "Job" -> out.add((Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec"));
            case "MPIJob" -> ((Map<String, Object>) spec.get("mpiReplicaSpecs")).values().forEach(r -> out.add(
                    (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) r).get("template")).get("spec")));
            default -> { }
        }
        return out;
    }

    @Test
    void shellScriptsParse() throws Exception {
        for (String s : List.of("slurm-prolog.sh", "mpirun-hostfile.sh", "sbatch-sweep.sh", "sbatch-fleet.sh")) {
            Path f = LAUNCH.resolve(s);
            assertTrue(Files.isExecutable(f), f + " must be executable");
            Process p = new ProcessBuilder("bash", "-n", f.toString()).redirectErrorStream(true).start();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
