package dev.ncclbench.cli;

import java.util.List;
import java.util.Map;

/**
 * The examples every --help prints (Main adds them before the exit-code table), one list per command, keyed by
 * the words after ncclbench ("baseline record" for a subcommand).
 */
final class Examples {
    private static final Map<String, List<String>> BY_COMMAND = Map.ofEntries(Map.entry(
            "ncclbench", List.of(
                    "ncclbench sweep                              all_reduce from 8 B to 8 GB (sockets without a GPU)",
                    "ncclbench help sweep                         every flag of the sweep",
                    "ncclbench explain results/runs/*/nccl.*.log  which path the bytes took, from NCCL's own log")),
            Map.entry("sweep", List.of(
                    "ncclbench sweep -b 8 -e 8G -f 2              nccl-tests' flags and table",
                    "ncclbench sweep --backend socket -b 1M -e 64M -f 2 --ranks 4",
                    "mpirun -np 8 scripts/ncclbench sweep --collective all --json run.json",
                    "ncclbench sweep --fabric ib-hdr -b 1G -e 1G  judge busbw against the fabric's line rate")),
            Map.entry("env", List.of(
                    "ncclbench env                                what was found where, and what is missing",
                    "ncclbench env --json -")),
            Map.entry("probe", List.of(
                    "ncclbench probe                              the interface NCCL bootstraps on",
                    "NCCL_SOCKET_IFNAME=eth0 ncclbench probe --json -")),
            Map.entry("explain", List.of(
                    "ncclbench explain nccl.*.log",
                    "NCCL_DEBUG=INFO torchrun ... 2>&1 | ncclbench explain -",
                    "ncclbench explain --fail-on warn --ignore NET-PLUGIN logs/",
                    "ncclbench explain --json verdict.json nccl.*.log   the verdict as JSON too (--json -: alone, on stdout)")),
            Map.entry("rules", List.of(
                    "ncclbench rules                              every rule: id, severity, what it looks for",
                    "ncclbench rules --json -")),
            Map.entry("doctor", List.of(
                    "ncclbench doctor                             this host: NCCL's interface, IB, memlock, /dev/shm, GDR",
                    "ncclbench doctor --save node0.json           ... and keep the evidence for a ticket",
                    "ncclbench doctor --compare node0.json node1.json")),
            Map.entry("recover", List.of(
                    "ncclbench recover results/runs/20250102-030405-socket-1234/result.json.partial")),
            Map.entry("fleet", List.of(
                    "srun -N 64 --ntasks-per-node=1 scripts/ncclbench fleet --rendezvous node0:29600",
                    "mpirun -np 8 --map-by ppr:1:node -x MASTER_ADDR=node0 -x MASTER_PORT=29600 -x NCCLBENCH_TOKEN scripts/ncclbench fleet",
                    "ncclbench fleet --rank 3 --world-size 8 --rendezvous 10.0.0.1:29600 --node-name node3")),
            Map.entry("help", List.of(
                    "ncclbench help sweep")),
            Map.entry("baseline", List.of(
                    "ncclbench baseline record run1.json run2.json run3.json --name h200-2node",
                    "ncclbench baseline list",
                    "ncclbench baseline show h200-2node")),
            Map.entry("baseline record", List.of(
                    "ncclbench baseline record run1.json run2.json run3.json --name h200-2node",
                    "ncclbench sweep -N 5 --json r.json && ncclbench baseline record r.json   one run, 5 cycles",
                    "ncclbench baseline record results/runs/<run>/ --baseline-dir /shared/baselines")),
            Map.entry("baseline list", List.of(
                    "ncclbench baseline list                      name, runs, sizes, fingerprint of each baseline",
                    "ncclbench baseline list --baseline-dir /shared/baselines")),
            Map.entry("baseline show", List.of(
                    "ncclbench baseline show h200-2node           its fingerprint and per-size statistics",
                    "ncclbench baseline show results/baselines/h200-2node.baseline.json")),
            Map.entry("gate", List.of(
                    "ncclbench gate results/runs/<run>/result.json  against the baseline of the same fingerprint",
                    "ncclbench gate --baseline h200-2node --junit gate.xml --markdown gate.md run.json",
                    "ncclbench gate --prometheus /var/lib/node_exporter/ncclbench.prom --tolerance-at 8-64K=25 run.json",
                    "ncclbench gate --json gate.json run.json       the decision as JSON too (--json -: on stdout)",
                    "ncclbench gate --curve-only run.json           the curve's shape alone: no baseline looked for")),
            Map.entry("report", List.of(
                    "ncclbench report run.json --html report.html --png busbw.png --svg busbw.svg",
                    "ncclbench report old.json new.json --baseline h200-2node --fabric ib-ndr --html r.html")),
            Map.entry("preflight", List.of(
                    "ncclbench preflight                          doctor, short sweep, path verdict, gate: PASS/DEGRADED/FAIL",
                    "srun --ntasks-per-node=1 scripts/launch/slurm-prolog.sh",
                    "ncclbench preflight --backend socket --baseline lab --junit preflight.xml",
                    "ncclbench preflight --catalog site-catalog.txt --doctor-ignore EVIDENCE-MISSING --json -")));

    private Examples() {
    }

    /** The footer lines (picocli format) for {@code command}, or none. */
    static String footer(String command) {
        List<String> lines = BY_COMMAND.get(command);
        if (lines == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder("%nExamples:%n");
        lines.forEach(l -> sb.append("  ").append(l.replace("%", "%%")).append("%n"));
        return sb.toString();
    }
}
