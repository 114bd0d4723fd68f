#!/usr/bin/env bash
# The socket backend's all_reduce against Open MPI and PyTorch Gloo at every size, on loopback, in one go.
#
# Per round (3 by default), interleaved: ncclbench (socket backend, one process per rank), Open MPI
# MPI_Allreduce with ob1 + the tcp btl (scripts/bench/mpi_allreduce.c), PyTorch Gloo all_reduce on CPU
# tensors (scripts/bench/gloo_allreduce.py). float sum, 8 B to 256 MiB by 4 (and 256 MiB itself), -n 200 below
# 1 MiB, 20 up to 32 MiB, 5 above; 1 warm-up call per size for each tool (ncclbench also warms its code paths
# before the first size, as every sweep does; its header says how). Each band of sizes is a fresh process of
# each tool, as a user's run would be. Time = mean per call of the timed
# loop, averaged over ranks (out of place for ncclbench and MPI; Gloo's all_reduce is in place). Each figure
# is the median over the rounds; ratio = the faster peer's time / ncclbench's time (>= 1.0: ncclbench is
# at least as fast). Also the p99/median of ncclbench's per-iteration samples at 8 B (target <= 5).
#
# PyTorch comes from a venv under .bench-venv/ (gitignored), created on first use with the pinned CPU wheel.
#   scripts/bench/socket-vs-peers.sh [--ranks N] [--rounds N] [--max SIZE] [--check] [-- extra sweep args]
# --check: exit 6 when a ratio is below 1.0 or p99/median at 8 B above 5.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

TORCH_VERSION="2.13.0+cpu"
ranks=2
rounds=3
maxb=$((256 << 20))
check=0
extra=()
while (($#)); do
  case "$1" in
    --ranks) ranks="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --max) maxb="$2"; shift ;;
    --check) check=1 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "socket-vs-peers: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$ranks" =~ ^[0-9]+$ && "$ranks" -ge 2 ]] || { echo "socket-vs-peers: --ranks must be 2 or more, got $ranks" >&2; exit 2; }
[[ "$maxb" =~ ^[0-9]+$ && "$maxb" -ge 8 ]] || { echo "socket-vs-peers: --max takes bytes (8 or more), got $maxb" >&2; exit 2; }
for t in mpicc mpirun jq python3; do
  command -v "$t" >/dev/null || { echo "socket-vs-peers: $t not found (apt-get install -y openmpi-bin libopenmpi-dev jq python3-venv)" >&2; exit 3; }
done

venv="$root/.bench-venv"
if ! "$venv/bin/python" -c "import torch, sys; sys.exit(torch.__version__ != '$TORCH_VERSION')" 2>/dev/null; then
  echo "# installing torch==$TORCH_VERSION into $venv (once) ..."
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --retries 0 --timeout 10 "torch==$TORCH_VERSION" numpy >"$root/target/bench-venv.log" 2>&1 ||
    { echo "socket-vs-peers: pip install torch==$TORCH_VERSION failed (see target/bench-venv.log)" >&2; exit 3; }
fi

keep="$root/results/runs/socket-vs-peers-$(date -u +%Y%m%d-%H%M%S)-$$"
mkdir -p "$keep" target/bench
echo "# building the jar (mvn package) and target/bench/mpi_allreduce (mpicc) ..."
if [[ -z "${NCCLBENCH_JAR:-}" ]]; then
  (mvn -q -B -o package -DskipTests >"$keep/build.log" 2>&1) || { cat "$keep/build.log" >&2; exit 1; }
fi
mpicc -O2 -Wall -o target/bench/mpi_allreduce scripts/bench/mpi_allreduce.c
jar="${NCCLBENCH_JAR:-$root/target/ncclbench.jar}"

# bands of sizes: "min max iters", each a run of x4 steps; the maximum itself last if the steps miss it
bands=()
band() { # lo hi iters, clipped to max
  local lo=$1 hi=$2 n=$3
  ((lo > maxb)) && return 0
  while ((hi > maxb)); do hi=$((hi / 4)); done
  ((hi >= lo)) && bands+=("$lo $hi $n")
  return 0
}
band 8 $((512 << 10)) 200
band $((2 << 20)) $((32 << 20)) 20
band $((128 << 20)) $((128 << 20)) 5
last=8; while ((last * 4 <= maxb)); do last=$((last * 4)); done
((last != maxb)) && bands+=("$maxb $maxb $( ((maxb >= (64 << 20))) && echo 5 || echo 20)")

freeport() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mpirun=(mpirun --oversubscribe -np "$ranks" --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo)
[[ $(id -u) -eq 0 ]] && mpirun+=(--allow-run-as-root)

ncclbench_band() { # round lo hi iters -> rows "size time_us" in ncclbench.times, 8 B samples in p99.txt
  local r=$1 lo=$2 hi=$3 n=$4 port i pids=() out="$keep/ncclbench-$1-$2"
  port=$(freeport)
  local sweep=(-jar "$jar" sweep --backend socket --world-size "$ranks" --rendezvous "127.0.0.1:$port" -b "$lo" -e "$hi"
    -f 4 -n "$n" -w 1 --no-progress "${extra[@]}")
  for ((i = 1; i < ranks; i++)); do
    NCCL_SOCKET_IFNAME=lo java "${sweep[@]}" --rank "$i" --json "$out-rank$i.json" >"$out-rank$i.out" 2>&1 &
    pids+=($!)
  done
  NCCL_SOCKET_IFNAME=lo java "${sweep[@]}" --rank 0 --json "$out.json" >"$out.out" 2>&1 ||
    { echo "socket-vs-peers: ncclbench failed, see $out.out" >&2; exit 4; }
  for p in "${pids[@]}"; do wait "$p"; done
  jq -r '.rows[] | "\(.size) \(.out_of_place.time_us) \(.algorithm // "-")"' "$out.json" >>"$keep/ncclbench.times"
  jq -r '.rows[] | select(.size == 8) | "\(.out_of_place.samples.median_us) \(.out_of_place.samples.p99_us)"' "$out.json" >>"$keep/p99.txt"
}

for r in $(seq "$rounds"); do
  for b in "${bands[@]}"; do
    read -r lo hi n <<<"$b"
    echo "# round $r/$rounds, $lo..$hi B, -n $n: ncclbench, Open MPI, Gloo"
    ncclbench_band "$r" "$lo" "$hi" "$n"
    "${mpirun[@]}" target/bench/mpi_allreduce "$lo" "$hi" 4 "$n" >"$keep/mpi-$r-$lo.out"
    awk '!/^#/ && NF >= 6 { print $1, $3 }' "$keep/mpi-$r-$lo.out" >>"$keep/mpi.times"
    port=$(freeport)
    pids=()
    for ((i = 1; i < ranks; i++)); do
      "$venv/bin/python" scripts/bench/gloo_allreduce.py "$i" "$ranks" "127.0.0.1:$port" "$lo" "$hi" 4 "$n" >/dev/null &
      pids+=($!)
    done
    "$venv/bin/python" scripts/bench/gloo_allreduce.py 0 "$ranks" "127.0.0.1:$port" "$lo" "$hi" 4 "$n" >"$keep/gloo-$r-$lo.out"
    for p in "${pids[@]}"; do wait "$p"; done
    awk '!/^#/ && NF >= 6 { print $1, $3 }' "$keep/gloo-$r-$lo.out" >>"$keep/gloo.times"
  done
done

echo
echo "# all_reduce float sum, $ranks ranks, one process per rank, loopback; median of $rounds rounds, time per call (us)"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
ok=1
awk -v check="$check" '
  function median(list,   a, m, i, j, x) {
    m = split(list, a, " ")
    for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  FILENAME ~ /ncclbench.times$/ { nb[$1] = nb[$1] " " $2; algo[$1] = $3; if (!($1 in seen)) { seen[$1]; sizes[++k] = $1 }; next }
  FILENAME ~ /mpi.times$/ { mpi[$1] = mpi[$1] " " $2; next }
  FILENAME ~ /gloo.times$/ { gloo[$1] = gloo[$1] " " $2; next }
  FILENAME ~ /p99.txt$/ { ratio = ratio " " ($1 > 0 ? $2 / $1 : 1e9); next }
  END {
    printf "%12s %12s %12s %12s %12s %10s\n", "size(B)", "algo", "ncclbench", "OpenMPI", "Gloo", "best/ncclb"
    min = 1e9
    for (i = 1; i <= k; i++) {
      s = sizes[i]; t = median(nb[s])
      m = (s in mpi) ? median(mpi[s]) : 0; g = (s in gloo) ? median(gloo[s]) : 0
      best = (m > 0 && (g <= 0 || m < g)) ? m : g
      r = (best > 0 && t > 0) ? best / t : 0
      if (r < min) min = r
      printf "%12d %12s %12.1f %12.1f %12.1f %10.2f\n", s, algo[s], t, m, g, r
    }
    pm = median(ratio)
    printf "min ratio best-peer/ncclbench over sizes: %.2f (target >= 1.0)\n", min
    printf "ncclbench p99/median at 8 B, median of rounds: %.2f (target <= 5; rounds:%s)\n", pm, ratio
    bad = min < 1.0 || pm > 5
    print bad ? "BELOW TARGET" : "PASS"
    exit bad && check ? 1 : 0
  }' "$keep/ncclbench.times" "$keep/mpi.times" "$keep/gloo.times" "$keep/p99.txt" || ok=0
echo "# kept: $keep"
((ok)) || exit 6
exit 0
