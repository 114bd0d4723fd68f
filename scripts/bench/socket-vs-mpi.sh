#!/usr/bin/env bash
# Socket backend all_reduce busbw against Open MPI's MPI_Allreduce over its TCP transport, on loopback,
# 2 ranks, float sum, 64M..256M x2, 1 warm-up + 5 timed iterations, all in the same run:
#   1. MPI:      mpirun -np 2 --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo target/bench/mpi_allreduce
#                (our own scripts/bench/mpi_allreduce.c, compiled here with mpicc; nccl-tests' algbw/busbw).
#                `pml ob1` makes the btl choice binding: were the UCX pml picked, it would ignore --mca btl.
#   2. threads:  scripts/ncclbench sweep --backend socket --ranks 2 (2 ranks as threads of one JVM)
#   3. processes: mpirun -np 2 scripts/ncclbench sweep --backend socket (one JVM per rank, rank from
#                OMPI_COMM_WORLD_*; mpirun only launches them, the bytes go over our own TCP sockets on lo)
# The three run in turn, --rounds times (default 3), interleaved so that a slow spell of a shared machine
# hits all three alike; each number below is the median over the rounds of that size's busbw.
# Ratio = ncclbench out-of-place busbw / MPI busbw per size (MPI_Allreduce here is out of place); the
# in-place column is printed too. --check: exit 6 when any ratio (threads or processes) is below 1.0.
# Both sides use TCP over loopback, so neither has a shared-memory shortcut (no vader for MPI).
#   scripts/bench/socket-vs-mpi.sh [--check] [--rounds N] [-- extra sweep args]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

check=0
rounds=3
target=1.0
extra=()
while (($#)); do
  case "$1" in
    --check) check=1 ;;
    --rounds) rounds="$2"; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "socket-vs-mpi: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
for t in mpicc mpirun jq; do
  command -v "$t" >/dev/null || { echo "socket-vs-mpi: $t not found (apt-get install -y openmpi-bin libopenmpi-dev jq)" >&2; exit 3; }
done

minb=$((64 << 20))
maxb=$((256 << 20))
iters=5
mpirun=(mpirun --oversubscribe -np 2)
[[ $(id -u) -eq 0 ]] && mpirun+=(--allow-run-as-root)
keep="$root/results/runs/socket-vs-mpi-$(date -u +%Y%m%d-%H%M%S)-$$"
mkdir -p "$keep" target/bench

echo "# building the jar (mvn package) and target/bench/mpi_allreduce (mpicc) ..."
if [[ -z "${NCCLBENCH_JAR:-}" ]]; then
  (mvn -q -B -o package -DskipTests >"$keep/build.log" 2>&1) || { cat "$keep/build.log" >&2; exit 1; }
fi
mpicc -O2 -Wall -o target/bench/mpi_allreduce scripts/bench/mpi_allreduce.c

sweep=(sweep --backend socket -b 64M -e 256M -f 2 -n "$iters" -w 1 --no-progress "${extra[@]}")
rows() { jq -r '.rows[] | select(.collective == "all_reduce") | "\(.size) \(.out_of_place.busbw) \(.in_place.busbw)"' "$1"; }
: >"$keep/mpi.busbw"; : >"$keep/threads.busbw"; : >"$keep/processes.busbw"
for r in $(seq "$rounds"); do
  echo "# round $r/$rounds: 1/3 MPI_Allreduce, Open MPI ob1 + tcp btl on lo"
  "${mpirun[@]}" --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo \
    target/bench/mpi_allreduce "$minb" "$maxb" 2 "$iters" | tee "$keep/mpi-$r.out"
  awk '!/^#/ && NF >= 5 { print $1, $5 }' "$keep/mpi-$r.out" >>"$keep/mpi.busbw"
  echo "# round $r/$rounds: 2/3 ncclbench, 2 ranks as threads"
  scripts/ncclbench "${sweep[@]}" --ranks 2 --json "$keep/threads-$r.json" >"$keep/threads-$r.out"
  grep -E '^ +[0-9]' "$keep/threads-$r.out"
  rows "$keep/threads-$r.json" >>"$keep/threads.busbw"
  echo "# round $r/$rounds: 3/3 ncclbench, 2 processes under mpirun"
  "${mpirun[@]}" scripts/ncclbench "${sweep[@]}" --json "$keep/processes-$r.json" >"$keep/processes-$r.out"
  grep -E '^ +[0-9]' "$keep/processes-$r.out"
  rows "$keep/processes-$r.json" >>"$keep/processes.busbw"
done

echo
echo "# all_reduce busbw (GB/s) on loopback, median of $rounds rounds: ncclbench socket vs Open MPI tcp; ratio = out-of-place / MPI, target >= $target"
ok=1
awk -v t="$target" '
  function median(list,   a, m, i, j, x) {
    m = split(list, a, " ")
    for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  FILENAME ~ /mpi.busbw$/ { mpi[$1] = mpi[$1] " " $2; next }
  FILENAME ~ /threads.busbw$/ { tho[$1] = tho[$1] " " $2; thi[$1] = thi[$1] " " $3; next }
  { pro[$1] = pro[$1] " " $2; pri[$1] = pri[$1] " " $3; if (!($1 in seen)) { seen[$1]; sizes[++k] = $1 } }
  END {
    printf "%12s %8s %10s %10s %8s %10s %10s %8s\n", "size(B)", "MPI", "threads", "(in-pl)", "ratio", "processes", "(in-pl)", "ratio"
    min = 1e9
    for (i = 1; i <= k; i++) {
      s = sizes[i]
      m = (s in mpi) ? median(mpi[s]) : 0
      if (m <= 0) { printf "%12d: no MPI number\n", s; min = 0; continue }
      to = median(tho[s]); po = median(pro[s])
      rt = to / m; rp = po / m
      printf "%12d %8.3f %10.3f %10.3f %8.2f %10.3f %10.3f %8.2f\n", s, m, to, median(thi[s]), rt, po, median(pri[s]), rp
      if (rt < min) min = rt; if (rp < min) min = rp
    }
    printf "min ratio over sizes and modes: %.2f\n", min
    if (min >= t) { print "PASS"; exit 0 } else { print "BELOW TARGET"; exit 1 }
  }' "$keep/mpi.busbw" "$keep/threads.busbw" "$keep/processes.busbw" || ok=0
echo "# kept: $keep"
if ((check && !ok)); then
  exit 6
fi
exit 0
