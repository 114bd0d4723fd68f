package dev.ncclbench.cli;

import java.util.List;
import java.util.Map;

/** The examples every --help prints (Main adds them before the exit-code table), one list per command. */
final class Examples {
    private static final Map<String, List<String>> BY_COMMAND = Map.of(
            "ncclbench", List.of(
                    "ncclbench sweep                              all_reduce from 8 B to 8 GB (sockets without a GPU)",
                    "ncclbench help sweep                         every flag of the sweep",
                    "ncclbench explain results/runs/*/nccl.*.log  which path the bytes took, from NCCL's own log"),
            "sweep", List.of(
                    "ncclbench sweep -b 8 -e 8G -f 2              nccl-tests' flags and table",
                    "ncclbench sweep --backend socket -b 1M -e 64M -f 2 --ranks 4",
                    "mpirun -np 8 scripts/ncclbench sweep --collective all --json run.json",
                    "ncclbench sweep --fabric ib-hdr -b 1G -e 1G  judge busbw against the fabric's line rate"),
            "env", List.of(
                    "ncclbench env                                what was found where, and what is missing",
                    "ncclbench env --json"),
            "probe", List.of(
                    "ncclbench probe                              the interface NCCL bootstraps on",
                    "NCCL_SOCKET_IFNAME=eth0 ncclbench probe --json"),
            "explain", List.of(
                    "ncclbench explain nccl.*.log",
                    "NCCL_DEBUG=INFO torchrun ... 2>&1 | ncclbench explain -",
                    "ncclbench explain --fail-on warn --ignore NET-PLUGIN logs/"),
            "rules", List.of(
                    "ncclbench rules                              every rule: id, severity, what it looks for",
                    "ncclbench rules --json"),
            "doctor", List.of(
                    "ncclbench doctor                             this host: NCCL's interface, IB, memlock, /dev/shm, GDR",
                    "ncclbench doctor --save node0.json           ... and keep the evidence for a ticket",
                    "ncclbench doctor --compare node0.json node1.json"),
            "recover", List.of(
                    "ncclbench recover results/runs/20250102-030405-socket-1234/result.json.partial"),
            "fleet", List.of(
                    "srun -N 64 --ntasks-per-node=1 scripts/ncclbench fleet --rendezvous node0:29600",
                    "mpirun -np 8 --map-by ppr:1:node -x MASTER_ADDR=node0 -x MASTER_PORT=29600 scripts/ncclbench fleet",
                    "ncclbench fleet --rank 3 --world-size 8 --rendezvous 10.0.0.1:29600 --node-name node3"),
            "help", List.of(
                    "ncclbench help sweep"));

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
