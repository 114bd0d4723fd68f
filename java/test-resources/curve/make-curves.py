#!/usr/bin/env python3
"""Writes the curve check's fixtures: all_reduce tables as `ncclbench sweep` prints them (nccl-tests' format), each
with the fabric the gate judges it against and the curve rules it fires. CurveFixturesTest reads them."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [8 << (2 * i) for i in range(14)]  # 8 B to 512 MiB, x4


def table(name, story, fabric, floor, nodes, fires, lat_us, gbps, override=None):
    rows = []
    for size in SIZES:
        t = lat_us + size / (gbps * 1e3)
        if override and size in override:
            t = override[size]
        algbw = size / t / 1e3
        busbw = algbw  # 2 ranks: all_reduce's 2(n-1)/n is 1
        # fewer decimals once the time needs six digits, as nccl-tests does, so columns never touch
        us = ("%9.2f" if t < 1e5 else "%9.1f") % t
        rows.append("%12d%14d%10s%8s%8d%s%8.2f%8.2f%8d%s%8.2f%8.2f%8d"
                    % (size, size // 4, "float", "sum", -1, us, algbw, busbw, 0, us, algbw, busbw, 0))
    head = ["# " + story,
            "# curve: fabric=%s socket_floor=%s nodes=%d" % (fabric, floor, nodes),
            "# fires: " + " ".join(fires),
            "# Collective test starting: all_reduce_perf",
            "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw"
            "   busbw  #wrong"]
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write("\n".join(head + rows) + "\n")


def main():
    table("ib-edr-healthy", "two nodes over InfiniBand EDR at 11.9 GB/s: nothing to say", "ib-edr", 1.1, 2, [],
          20, 11.9)
    table("ib-edr-socket-floor", "two EDR nodes whose NCCL fell back to sockets: 1.15 GB/s, the 1.1 GB/s floor",
          "ib-edr", 1.1, 2, ["CURVE-SOCKET-FLOOR", "CURVE-UNDER-HEALTHY"], 60, 1.15)
    table("ib-edr-dip", "a healthy EDR curve with one slow size (128 MiB at 7 GB/s): a protocol switch or a busy host",
          "ib-edr", 1.1, 2, ["CURVE-DIP"], 20, 11.9, {128 << 20: (128 << 20) / 7.0e3})
    table("ib-edr-cold-start", "a healthy EDR curve whose first size paid for connection set-up (180 us for 8 B)",
          "ib-edr", 1.1, 2, ["CURVE-LATENCY-DROP"], 20, 11.9, {8: 180.0})
    table("eth-10g-under-healthy", "one node's socket run on 10 GbE at 0.7 GB/s, under the 1.0 GB/s healthy minimum",
          "eth-10g", "none", 1, ["CURVE-UNDER-HEALTHY"], 30, 0.70)


if __name__ == "__main__":
    main()
