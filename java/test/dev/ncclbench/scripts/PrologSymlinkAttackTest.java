package dev.ncclbench.scripts;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Slurm prolog runs as root: a user who makes its output folder first (a new node, after a cleanup) and plants
 * symbolic links there must not get root to write through them. Run for real: the user is nobody (runuser), the
 * prolog is scripts/launch/slurm-prolog.sh as root, with stub scontrol and logger first on PATH (what it tells the
 * node's Comment and syslog is what they log), under a folder that stands in for /var/tmp (root's, mode 1777). Skips
 * with the reason where the test is not root or runuser is missing (CI has both).
 */
class PrologSymlinkAttackTest {
    @TempDir
    Path dir;

    private Path root;
    private Path varTmp;
    private Stubs stubs;
    private String nobodyUid;

    @BeforeEach
    void machine() throws Exception {
        Stubs probe = new Stubs(dir);
        assumeTrue(probe.run(dir, Map.of(), "id", "-u").output().strip().equals("0"), "needs root: the prolog runs as root");
        Stubs.Run id = probe.run(dir, Map.of(), "runuser", "-u", "nobody", "--", "id", "-u");
        assumeTrue(id.code() == 0, "needs runuser and the user nobody: " + id.output());
        nobodyUid = id.output().strip();
        root = dir.toRealPath();
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x")); // nobody may walk to vt
        stubs = new Stubs(Files.createDirectory(root.resolve("stubs")))
                .stub("scontrol", "exit 0")
                .stub("logger", "exit 0");
        Files.writeString(root.resolve("ncclbench.jar"), "not a jar\n");
        varTmp = sticky(Files.createDirectory(root.resolve("vt")));
    }

    /** Mode 1777, as /var/tmp (Java's permissions have no sticky bit). */
    private Path sticky(Path folder) throws Exception {
        Stubs.Run r = stubs.run(root, Map.of(), "chmod", "1777", folder.toString());
        assertEquals(0, r.code(), r.output());
        return folder;
    }

    /** Root's own file, which no prolog may touch: its content is the check. */
    private Path victim(String name) throws IOException {
        Path v = root.resolve(name);
        Files.writeString(v, "root's own " + name + "\n");
        return v;
    }

    private void asNobody(String script) throws Exception {
        Stubs.Run r = stubs.run(root, Map.of(), "runuser", "-u", "nobody", "--", "sh", "-c", script);
        assertEquals(0, r.code(), r.output());
    }

    /** The real prolog as root; the jar is a file that exists and java is /bin/false, so preflight "runs" and fails. */
    private Stubs.Run prolog(Path out, String node) throws Exception {
        Path jar = root.resolve("ncclbench.jar");
        Map<String, String> env = new HashMap<>();
        env.put("SLURMD_NODENAME", node);
        env.put("NCCLBENCH_JAR", jar.toString());
        env.put("NCCLBENCH_JAVA", "/bin/false");
        if (out != null) {
            env.put("NCCLBENCH_OUT", out.toString());
        }
        return stubs.run(root, env, "bash", Stubs.LAUNCH.resolve("slurm-prolog.sh").toString());
    }

    /** Every path under the test's folder but the stubs' log, with its kind, owner and content: what "written" changes. */
    private Map<String, String> tree() throws IOException {
        Map<String, String> t = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(p -> !p.startsWith(root.resolve("stubs"))).toList()) {
                String what = Files.isSymbolicLink(p) ? "link " + Files.readSymbolicLink(p)
                        : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "folder"
                        : "file " + Files.readString(p, StandardCharsets.ISO_8859_1);
                t.put(root.relativize(p).toString(), what + " owner " + Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName());
            }
        }
        return t;
    }

    /** The prolog said why, where an admin looks: syslog (logger) and the node's Comment (scontrol). */
    private void toldAdmin(String node, String why) throws IOException {
        assertTrue(stubs.calls("logger").stream().anyMatch(l -> l.contains("[ncclbench-prolog]")
                && l.contains("[" + node + ": ncclbench prolog: no check ran: will not write as root where others could: "
                + why)), stubs.calls().toString());
        assertTrue(stubs.calls("scontrol").stream().anyMatch(l -> l.startsWith("scontrol [update] [NodeName=" + node + "]"
                + " [Comment=ncclbench prolog: no check ran: will not write as root where others could: " + why)),
                stubs.calls().toString());
    }

    @Test
    void plantedLinksWriteNothingOutside() throws Exception {
        Path node = varTmp.resolve("ncclbench/node01");
        Map<String, Path> victims = new HashMap<>();
        StringBuilder plant = new StringBuilder("mkdir -p '" + node + "'");
        for (String f : new String[] {"preflight.err", "preflight.out", "preflight.xml", "ncclbench.prom"}) {
            victims.put(f, victim("victim-" + f));
            plant.append(" && ln -s '").append(victims.get(f)).append("' '").append(node.resolve(f)).append("'");
        }
        asNobody(plant.toString());
        Map<String, String> before = tree();

        Stubs.Run r = prolog(node, "node01");

        assertEquals(0, r.code(), "NCCLBENCH_UNCHECKED=leave: said, then the job runs: " + r.output());
        assertEquals(before, tree(), "root wrote nothing, through the links or beside them: " + r.output());
        victims.forEach((f, v) -> {
            try {
                assertEquals("root's own victim-" + f + "\n", Files.readString(v));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        // the first part of the path that is not root's is named: the folder nobody made above the node's
        toldAdmin("node01", node.getParent() + " belongs to uid " + nobodyUid + ", not root");
    }

    @Test
    void aPlantedLinkForTheFolderIsRefused() throws Exception {
        // root's own sticky folder for every node (as /var/tmp): a user may still put a link where a node's folder goes,
        // and the link leads to a folder of root's, so that followed, every check of ownership would pass
        Path shared = sticky(Files.createDirectory(varTmp.resolve("ncclbench")));
        Path target = Files.createDirectory(root.resolve("root-folder"));
        Path node = shared.resolve("node02");
        asNobody("ln -s '" + target + "' '" + node + "'");
        Map<String, String> before = tree();

        Stubs.Run r = prolog(node, "node02");

        assertEquals(0, r.code(), r.output());
        assertEquals(before, tree(), r.output());
        toldAdmin("node02", node + " is a symbolic link");
    }

    @Test
    void aFolderUnderALinkIsRefusedEvenWhenRootMadeTheLink() throws Exception {
        Path real = Files.createDirectory(root.resolve("real"));
        Path link = Files.createSymbolicLink(root.resolve("link"), real);
        Map<String, String> before = tree();

        Stubs.Run r = prolog(link.resolve("node03"), "node03");

        assertEquals(0, r.code(), r.output());
        assertEquals(before, tree(), "nothing made under the link's target: " + r.output());
        toldAdmin("node03", link + " is a symbolic link");
    }

    @Test
    void aFolderOthersMayWriteIsRefused() throws Exception {
        Path open = Files.createDirectory(root.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Stubs.Run r = prolog(open.resolve("node04"), "node04");
        assertEquals(0, r.code(), r.output());
        assertFalse(Files.exists(open.resolve("node04")), r.output());
        toldAdmin("node04", open + " may be written by others (mode 777)");

        // a sticky parent of root's (as /var/tmp) is fine, the folder itself must be root's alone
        Path groupWritable = Files.createDirectories(varTmp.resolve("node05"));
        Files.setPosixFilePermissions(groupWritable, PosixFilePermissions.fromString("rwxrwxr-x"));
        r = prolog(groupWritable, "node05");
        assertEquals(0, r.code(), r.output());
        try (Stream<Path> s = Files.list(groupWritable)) {
            assertEquals(0, s.count(), r.output());
        }
        toldAdmin("node05", groupWritable + " may be written by others (mode 775)");
    }

    @Test
    void theFolderItMakesIsRootsAndItsFilesReplaceLinksNeverFollowThem() throws Exception {
        // a new folder: made root's, 0755, parents too; the check's files land there
        Path made = root.resolve("lib/ncclbench/node06");
        Stubs.Run r = prolog(made, "node06");
        assertEquals(0, r.code(), r.output());
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(made)));
        assertEquals("root", Files.getOwner(made).getName());
        Path err = made.resolve("preflight.err");
        assertTrue(Files.isRegularFile(err, LinkOption.NOFOLLOW_LINKS), r.output());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(err)));
        assertTrue(Files.readString(err).contains("node06: ncclbench prolog: no check ran: preflight exit 1"), Files.readString(err));
        assertTrue(Files.isRegularFile(made.resolve("preflight.out"), LinkOption.NOFOLLOW_LINKS));

        // root's folder with a link in it (only root could have put it there): the file replaces the link
        Path victim = victim("victim-out");
        Files.delete(made.resolve("preflight.out"));
        Files.createSymbolicLink(made.resolve("preflight.out"), victim);
        Files.delete(made.resolve("preflight.err"));
        Files.createSymbolicLink(made.resolve("preflight.err"), victim("victim-err"));
        r = prolog(made, "node06");
        assertEquals(0, r.code(), r.output());
        assertTrue(Files.isRegularFile(made.resolve("preflight.out"), LinkOption.NOFOLLOW_LINKS), r.output());
        assertTrue(Files.isRegularFile(made.resolve("preflight.err"), LinkOption.NOFOLLOW_LINKS), r.output());
        assertEquals("root's own victim-out\n", Files.readString(victim));
        assertEquals("root's own victim-err\n", Files.readString(root.resolve("victim-err")));
    }
}
