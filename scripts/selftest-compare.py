#!/usr/bin/env python3
"""Per size, nccl-tests vs ncclbench from scripts/gpu-selftest.sh's outputs: time and algbw, out of place and in
place, plain and -G 1, with a verdict per row.

    selftest-compare.py NCCL_TESTS_TXT SWEEP_TXT

Both files hold steps as "### NAME: command" then that command's output (nccl-tests' table format, which ncclbench
prints too). With -N cycles a size has several rows per side: each side's best (least time, most algbw) is compared,
so that a run-to-run spread of a few percent does not read as a difference.

Verdicts (why: NCCL makes a one-rank all_reduce a cudaMemcpyAsync out of place and nothing at all in place):
  out of place >= 64 MiB     ratio of algbw >= 0.97                       ("SLOWER than 3%")
  in place on one rank       "host only": no GPU work, the host's call cost, time within +1 us
  any other row whose nccl-tests time is < 50 us, or size <= 64 KiB: time within +1 us
  the rest                   "-" (printed, not judged)
  any #wrong above 0 on either side: "WRONG data; " before the verdict
"""
import re
import sys

BIG = 64 << 20


def sections(path):
    """{step: {"ranks": n, "rows": {size: [(oop_us, oop_algbw, oop_wrong, ip_us, ip_algbw, ip_wrong), ...]}}}"""
    out, cur = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r"### (\S+):", line)
        if m:
            cur = out.setdefault(m.group(1), {"ranks": 0, "rows": {}})
            continue
        if cur is None:
            continue
        if re.match(r"#\s+Rank\s+\d+", line):
            cur["ranks"] += 1
            continue
        f = line.split()
        if len(f) < 13 or not f[0].isdigit():
            continue
        try:
            row = (float(f[5]), float(f[6]), f[8], float(f[9]), float(f[10]), f[12])
        except ValueError:
            continue
        cur["rows"].setdefault(int(f[0]), []).append(row)
    return out


def best(rows, place):
    """Least time, most algbw and the worst #wrong over the cycles, for one placement."""
    t, a, w = (0, 1, 2) if place == "oop" else (3, 4, 5)
    wrongs = [r[w] for r in rows]
    numeric = [int(x) for x in wrongs if x.isdigit()]
    return min(r[t] for r in rows), max(r[a] for r in rows), (str(max(numeric)) if numeric else wrongs[-1]), len(rows)


def verdict(size, place, ranks, t_nt, t_nb, ratio):
    if place == "oop" and size >= BIG:
        return "ok" if ratio >= 0.97 else "SLOWER than 3%"
    within = "ok" if t_nb <= t_nt + 1.0 else "SLOWER than +1 us"
    if place == "ip" and ranks == 1:
        return "host only: " + within
    if t_nt < 50 or size <= 64 << 10:
        return within
    return "-"


def main(nt_path, nb_path):
    nt, nb = sections(nt_path), sections(nb_path)
    for a, b, title in (("nccl-tests", "sweep", "plain"), ("nccl-tests-G", "sweep-G", "-G 1")):
        x, y = nt.get(a, {"ranks": 0, "rows": {}}), nb.get(b, {"ranks": 0, "rows": {}})
        ranks = max(x["ranks"], y["ranks"]) or 1
        print(f"# {title}: nccl-tests ({len(x['rows'])} sizes) vs ncclbench ({len(y['rows'])} sizes), {ranks} rank(s);"
              " best of each side's cycles; ratio = ncclbench algbw / nccl-tests algbw")
        print(f"# {'size':>12} {'place':>5} {'nt_us':>9} {'nb_us':>9} {'d_us':>7} {'nt_algbw':>9} {'nb_algbw':>9}"
              f" {'ratio':>6} {'nt_wrong':>8} {'nb_wrong':>8} {'cycles':>6}  verdict")
        for size in sorted(set(x["rows"]) & set(y["rows"])):
            for place in ("oop", "ip"):
                t1, b1, w1, n1 = best(x["rows"][size], place)
                t2, b2, w2, n2 = best(y["rows"][size], place)
                ratio = b2 / b1 if b1 > 0 else float("nan")
                v = verdict(size, place, ranks, t1, t2, ratio)
                if any(w.isdigit() and int(w) > 0 for w in (w1, w2)):
                    v = "WRONG data; " + v
                print(f"  {size:>12} {place:>5} {t1:9.2f} {t2:9.2f} {t2 - t1:7.2f} {b1:9.2f} {b2:9.2f} {ratio:6.3f}"
                      f" {w1:>8} {w2:>8} {str(n1) + '/' + str(n2):>6}  {v}")
        if not x["rows"] or not y["rows"]:
            print("#   nothing to compare: one side has no rows (see summary.txt)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: selftest-compare.py NCCL_TESTS_TXT SWEEP_TXT", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
