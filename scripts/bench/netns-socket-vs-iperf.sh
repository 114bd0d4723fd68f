#!/usr/bin/env bash
# Socket backend all_reduce busbw against iperf3 goodput on the same shaped link, in the same run.
#
# Two network namespaces joined by a veth pair (10.77.0.1/24 <-> 10.77.0.2/24), each end's egress shaped
# by `tbf rate 1gbit`, so the link is a full-duplex 1 Gbit/s wire. Then, in order:
#   1. iperf3, one direction (client in ns0 -> server in ns1), ~5 s: the goodput a tuned TCP
#      stream gets from the link (end.sum_received.bits_per_second, payload bits).
#   2. iperf3 --bidir: the same with both directions loaded at once (printed, not used for the ratio):
#      it shows the shaping really is per direction, the premise of the ratio below.
#   3. ncclbench sweep --backend socket all_reduce, rank 0 in ns0 and rank 1 in ns1, 64M..256M x2, -n 5.
# Ratio = busbw (GB/s) / one-direction goodput (GB/s = bits/s / 8e9), per size; target >= 0.95.
#
# Why one direction: with 2 ranks busbw = algbw * 2(n-1)/n = algbw = size / time. In the ring each rank
# sends size/2 in the reduce-scatter and size/2 in the all-gather to the other, while receiving the same
# from it, so every direction of the link carries `size` bytes in `time`: busbw *is* the per-direction
# byte rate, and its ceiling on a full-duplex link is the one-direction goodput, not the bidirectional sum
# (which would halve the ratio) and not the bidirectional per-direction goodput (which would flatter us if
# the link were half-duplex). That is also how nccl-tests' busbw is meant to be read: against one NIC
# direction's line rate.
#
# Shaping: tbf rate 1gbit, burst 256kb (2 ms at 1 Gbit/s: several 64 KB GSO segments, so veth's large
# packets pass without being split while the rate stays smooth), latency 20ms (about 2.5 MB of queue:
# enough that TCP with large windows never starves the shaper, short enough not to hide a stall).
#
# Needs root, iproute2, iperf3, jq, and a built jar (mvn -q -B -o package -DskipTests; the launcher
# builds it if stale, but building inside a namespace would be slow and racy, so we build first).
# Traffic stays inside namespaces this script creates; they are deleted on exit.
#   scripts/bench/netns-socket-vs-iperf.sh [--check] [--rate 1gbit] [--seconds 5] [-- extra sweep args]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

check=0
rate=1gbit
seconds=5
target=0.95
extra=()
while (($#)); do
  case "$1" in
    --check) check=1 ;;
    --rate) rate="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "netns-socket-vs-iperf: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

[[ $(id -u) -eq 0 ]] || { echo "netns-socket-vs-iperf: needs root (network namespaces, tc)" >&2; exit 3; }
for t in ip tc iperf3 jq; do
  command -v "$t" >/dev/null || { echo "netns-socket-vs-iperf: $t not found (apt-get install -y iproute2 iperf3 jq)" >&2; exit 3; }
done

# names carry the pid so two runs never collide; veth names stay within 15 characters (IFNAMSIZ)
ns0="socket-ns0-$$"
ns1="socket-ns1-$$"
if0="socket-a$$"
if1="socket-b$$"
ip0=10.77.0.1
ip1=10.77.0.2
work="$(mktemp -d /tmp/ncclbench-netns.XXXXXX)"
# What is kept: both iperf3 JSONs, both ranks' JSON results and outputs.
keep="$root/results/runs/netns-socket-vs-iperf-$(date -u +%Y%m%d-%H%M%S)-$$"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  ip netns del "$ns0" 2>/dev/null || true
  ip netns del "$ns1" 2>/dev/null || true
  if [[ -n "$(ls "$work"/*.json 2>/dev/null)" ]]; then
    mkdir -p "$keep" && cp "$work"/*.json "$work"/*.out "$keep"/ 2>/dev/null && echo "# kept: $keep" >&2
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "# building the jar (mvn package) if needed ..."
if [[ -z "${NCCLBENCH_JAR:-}" ]]; then
  (mvn -q -B -o package -DskipTests >"$work/build.log" 2>&1) || { cat "$work/build.log" >&2; exit 1; }
fi

ip netns add "$ns0"
ip netns add "$ns1"
ip link add "$if0" netns "$ns0" type veth peer name "$if1" netns "$ns1"
ip -n "$ns0" addr add "$ip0/24" dev "$if0"
ip -n "$ns1" addr add "$ip1/24" dev "$if1"
for ns in "$ns0" "$ns1"; do ip -n "$ns" link set lo up; done
ip -n "$ns0" link set "$if0" up
ip -n "$ns1" link set "$if1" up
tc -n "$ns0" qdisc add dev "$if0" root tbf rate "$rate" burst 256kb latency 20ms
tc -n "$ns1" qdisc add dev "$if1" root tbf rate "$rate" burst 256kb latency 20ms
echo "# link: $ns0/$if0 $ip0 <-> $ns1/$if1 $ip1, tbf rate $rate burst 256kb latency 20ms on both egresses"

# 1 and 2: iperf3 (server in ns1, client in ns0). -1: the server exits after one test.
iperf() {
  local out="$1"; shift
  ip netns exec "$ns1" iperf3 -s -1 -B "$ip1" -p 5201 >/dev/null 2>&1 &
  local spid=$!
  pids+=("$spid")
  local i
  for i in $(seq 50); do
    ip netns exec "$ns1" ss -ltn 2>/dev/null | grep -q ":5201 " && break
    sleep 0.1
  done
  ip netns exec "$ns0" iperf3 -c "$ip1" -p 5201 -t "$seconds" -J "$@" >"$out"
  wait "$spid" || true
}
iperf "$work/iperf-uni.json"
iperf "$work/iperf-bidir.json" --bidir
goodput=$(jq -r '.end.sum_received.bits_per_second' "$work/iperf-uni.json")
retr=$(jq -r '.end.sum_sent.retransmits // 0' "$work/iperf-uni.json")
bidir_fwd=$(jq -r '.end.sum_received.bits_per_second' "$work/iperf-bidir.json")
bidir_rev=$(jq -r '.end.sum_received_bidir_reverse.bits_per_second // empty' "$work/iperf-bidir.json")
awk -v g="$goodput" -v r="$retr" 'BEGIN { printf "# iperf3 one direction, %s s: %.1f Mbit/s goodput = %.4f GB/s (%d retransmits)\n", ARGV[1], g / 1e6, g / 8e9, r }' "$seconds"
[[ -n "$bidir_rev" ]] && awk -v f="$bidir_fwd" -v b="$bidir_rev" 'BEGIN { printf "# iperf3 --bidir: %.1f + %.1f Mbit/s (per direction; not the denominator)\n", f / 1e6, b / 1e6 }'

# 3: the two ranks. The store port is picked here; rank 0 serves it on 10.77.0.1 (wildcard bind inside ns0).
port=$((20000 + $$ % 20000))
sweep=(sweep --backend socket --world-size 2 --rendezvous "$ip0:$port" -b 64M -e 256M -f 2 -n 5 --no-progress "${extra[@]}")
NCCL_SOCKET_IFNAME="=$if1" ip netns exec "$ns1" scripts/ncclbench "${sweep[@]}" --rank 1 --json "$work/rank1.json" \
  >"$work/rank1.out" 2>&1 &
r1=$!
pids+=("$r1")
rc0=0
NCCL_SOCKET_IFNAME="=$if0" ip netns exec "$ns0" scripts/ncclbench "${sweep[@]}" --rank 0 --json "$work/rank0.json" \
  2>&1 | tee "$work/rank0.out" || rc0=$?
rc1=0
wait "$r1" || rc1=$?
if ((rc0 != 0 || rc1 != 0)); then
  echo "netns-socket-vs-iperf: ncclbench failed (rank 0 exit $rc0, rank 1 exit $rc1); rank 1 said:" >&2
  cat "$work/rank1.out" >&2
  exit 4
fi

# Rows as: size busbw_out busbw_in; ratio against the goodput.
echo
echo "# all_reduce busbw / iperf3 one-direction goodput ($(awk -v g="$goodput" 'BEGIN{printf "%.4f", g/8e9}') GB/s), target >= $target"
jq -r '.rows[] | select(.collective == "all_reduce") | "\(.size) \(.out_of_place.busbw) \(.in_place.busbw)"' "$work/rank0.json" |
  awk -v g="$goodput" -v t="$target" '
    BEGIN { gb = g / 8e9; min = 1e9; printf "%12s %10s %10s %8s %8s\n", "size(B)", "busbw_oop", "busbw_ip", "ratio", "ratio_ip" }
    { r = $2 / gb; ri = $3 / gb; printf "%12d %10.4f %10.4f %8.3f %8.3f\n", $1, $2, $3, r, ri
      last = r; lasti = ri; if (r < min) min = r; if (ri < min) min = ri }
    END { printf "ratio at the largest size: %.3f (in-place %.3f); min over sizes and placements: %.3f\n", last, lasti, min
          if (min >= t) { print "PASS"; exit 0 } else { print "BELOW TARGET"; exit 1 } }' && ok=1 || ok=0
if ((check && !ok)); then
  exit 6
fi
exit 0
