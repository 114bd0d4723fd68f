#!/usr/bin/env bash
# ncclbench preflight in the multi-homed lab (scripts/lab/netns-nodes.sh: two namespaces play two nodes; eth0
# shaped to 500 Mbit/s and created first, rdma0 unshaped; scripts/lab/fabric-catalog.txt declares their rates).
# Each namespace runs one rank of `ncclbench preflight --backend socket --world-size 2`, twice:
#   1. NCCL_SOCKET_IFNAME unset: doctor finds SOCKET-DEFAULT-SLOW-NIC on each node, so both ranks say
#      "DEGRADED: NCCL_SOCKET_IFNAME is unset and NCCL will pick eth0 ..." and exit 6;
#   2. NCCL_SOCKET_IFNAME=rdma0: both ranks say PASS (rank 0 after the gate) and exit 0.
# Prints one line per run and rank; exit 0 when all four hold, 1 when one does not, 3 without root.
#   scripts/lab/preflight.sh [--keep DIR] [-- more preflight flags]
#   NCCLBENCH_CMD   the ncclbench to run (default scripts/ncclbench; tests pass a class-path launcher)
#   LAB_PREFIX      namespace names (default preflight-lab-$$-: PREFIX0, PREFIX1)
#   LAB_SIZES       the sweep's flags (default "-b 1M -e 4M -f 2 -n 5 -w 3": a few seconds even on eth0)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
keep=""
if [[ "${1:-}" == --keep ]]; then keep="$2"; shift 2; fi
[[ "${1:-}" == -h || "${1:-}" == --help ]] && { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0; }
[[ "${1:-}" == -- ]] && shift
extra=("$@")
[[ $(id -u) -eq 0 ]] || { echo "preflight lab: needs root (network namespaces, tc)" >&2; exit 3; }
nb="${NCCLBENCH_CMD:-$root/scripts/ncclbench}"
prefix="${LAB_PREFIX:-preflight-lab-$$-}"
ns0="${prefix}0"
ns1="${prefix}1"
read -r -a sizes <<<"${LAB_SIZES:--b 1M -e 4M -f 2 -n 5 -w 3}"
source "$root/scripts/lab/lab-nodes.sh"
lab_nodes_up preflight-lab
catalog="$root/scripts/lab/fabric-catalog.txt"

# One 2-rank preflight, rank 0 in ns0, rank 1 in ns1; the rendezvous store listens on ns0's eth0 (a fresh
# namespace: no other listener can hold the port). Writes NAME-R.out and NAME-R.rc.
preflight() {  # preflight NAME IFNAME|""
  local name="$1" ifname="$2" port=$((20000 + RANDOM % 20000))
  local args=(preflight --backend socket --world-size 2 --rendezvous "10.0.0.1:$port" --catalog "$catalog"
    "${sizes[@]}" --out "$work/runs" --baseline-dir "$work/baselines" ${extra[@]+"${extra[@]}"})
  local envs=(env -u NCCL_SOCKET_IFNAME)
  [[ -n "$ifname" ]] && envs=(env NCCL_SOCKET_IFNAME="$ifname")
  ip netns exec "$ns1" "${envs[@]}" $nb "${args[@]}" --rank 1 >"$work/$name-1.out" 2>"$work/$name-1.err" &
  local r1=$!
  local rc0=0 rc1=0
  ip netns exec "$ns0" "${envs[@]}" $nb "${args[@]}" --rank 0 >"$work/$name-0.out" 2>"$work/$name-0.err" || rc0=$?
  wait "$r1" || rc1=$?
  echo "$rc0" >"$work/$name-0.rc"
  echo "$rc1" >"$work/$name-1.rc"
}

preflight unset ""
preflight rdma0 rdma0

# what each run and rank must say: the exit code and how its verdict line (the last line of stdout) starts
expect() {  # expect NAME R -> "CODE PREFIX"
  case "$1-$2" in
    unset-*) echo "6 DEGRADED: NCCL_SOCKET_IFNAME is unset and NCCL will pick eth0 " ;;
    rdma0-0) echo "0 PASS: " ;;
    rdma0-1) echo "0 PASS: the sweep ran on this rank; rank 0 judges the results" ;;
  esac
}
ok=1
n=0
for name in unset rdma0; do
  for r in 0 1; do
    n=$((n + 1))
    rc="$(cat "$work/$name-$r.rc")"
    line="$(tail -n 1 "$work/$name-$r.out")"
    want="$(expect "$name" "$r")"
    label="NCCL_SOCKET_IFNAME unset"
    [[ "$name" == rdma0 ]] && label="NCCL_SOCKET_IFNAME=rdma0"
    echo "$n. $label, rank $r: exit $rc: $line"
    if [[ "$rc" != "${want%% *}" || "$line" != "${want#* }"* ]]; then
      ok=0
      echo "   NOT AS EXPECTED (exit ${want%% *}, a line starting '${want#* }'); its stderr ends:" >&2
      tail -n 5 "$work/$name-$r.err" | sed 's/^/   /' >&2
    fi
  done
done
((ok)) || exit 1
