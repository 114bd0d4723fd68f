#!/usr/bin/env bash
# The rail lab: N network namespaces, each a "node" with a management interface on one bridge (rendezvous and the
# node rounds) and R rail interfaces, rail r of every node on its own bridge and subnet (one veth pair per rail, as
# one NIC per GPU sits on its own leaf). Every rail is shaped with tbf to --rate both ways; one rail of one node to
# half of it. Runs `ncclbench fleet --rails` in every namespace and checks that fleet names exactly that node and
# that rail, and no other rail or node.
#
#   scripts/lab/fleet-rails.sh [--nodes N] [--rails R] [--slow I:R | --random] [--down I:R] [--rate MBIT]
#                              [--out DIR] [--keep] [--cleanup] [--prefix NAME] [-- fleet flags...]
#
#   --nodes N     namespaces <prefix>-0 .. <prefix>-(N-1), 2 to 8 (default 6)
#   --rails R     rails per node, 1 to 8 (default 4); inside each namespace rail1 .. railR
#   --slow I:R    rail R (0-based, fleet's numbering) of node I at half of --rate (default: none)
#   --random      the slow node and rail chosen at random here; says which
#   --down I:R    rail R of node I set down before fleet starts: fleet must name it down
#   --rate MBIT   every rail's rate (default 20): low enough that this 2-core VM's CPUs are not the limit at 8 x 4 rails
#   --out DIR     where the run's files go (default: a temporary folder, printed)
#   --keep        leave the namespaces up afterwards (delete with --cleanup)
#   --cleanup     only delete this lab's namespaces and bridges
#   --prefix NAME names of namespaces and bridges start with this (default flr; flr and up to 3 letters or digits)
#   -- FLAGS      more fleet flags (default: --round-timeout 20 --sizes 1M -n 3)
#
# The rails' line rate is declared as a site does for links that report none (veth): a catalog written into the run
# folder with one fabric at --rate and a `site SUBNET FABRIC` line per rail. Each node runs in its own UTS namespace
# with the host name <prefix>-I. Prints fleet's output, one line per check, and exits 0 when fleet named exactly the
# shaped rail (slow) and the downed one (down), no other, with exit 6 (exit 0 with nothing planted); else 1.
# Needs root, ip, tc (iproute2) and java; FLEET_JAVA_CP, NCCLBENCH_JAR or target/ncclbench.jar as scripts/lab/fleet.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prefix=flr
net=10.233
port=29641
nodes=6 rails=4 slow=none random=0 down=none rate=20 out="" keep=0
fleet_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) nodes="$2"; shift 2 ;;
    --rails) rails="$2"; shift 2 ;;
    --slow) slow="$2"; shift 2 ;;
    --random) random=1; shift ;;
    --down) down="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --prefix) prefix="$2"; shift 2 ;;
    --cleanup) cleanup_only=1; shift ;;
    --) shift; fleet_args=("$@"); break ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "fleet-rails.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# shellcheck source=scripts/lab/fleet-lab.sh
source "$root/scripts/lab/fleet-lab.sh"
cleanup() {
  fleet_lab_down
  for br in $(ip -o link show type bridge 2>/dev/null | awk -F': ' '{print $2}' | grep "^${prefix}b[0-9m]*$" || true); do
    ip link del "$br" 2>/dev/null || true
  done
}
[[ "$prefix" =~ ^flr[a-z0-9]{0,3}$ ]] || { echo "fleet-rails.sh: --prefix wants flr and up to 3 letters or digits" >&2; exit 2; }
if [[ "${cleanup_only:-0}" == 1 ]]; then cleanup; exit 0; fi
if [[ $(id -u) -ne 0 ]]; then echo "fleet-rails.sh: needs root (network namespaces, tc)" >&2; exit 3; fi
for t in ip tc java python3; do command -v "$t" >/dev/null || { echo "fleet-rails.sh: needs $t" >&2; exit 3; }; done
[[ "$nodes" =~ ^[0-9]+$ && "$nodes" -ge 2 && "$nodes" -le 8 ]] || { echo "fleet-rails.sh: --nodes wants 2 to 8" >&2; exit 2; }
[[ "$rails" =~ ^[0-9]+$ && "$rails" -ge 1 && "$rails" -le 8 ]] || { echo "fleet-rails.sh: --rails wants 1 to 8" >&2; exit 2; }
[[ "$rate" =~ ^[0-9]+$ && "$rate" -ge 8 ]] || { echo "fleet-rails.sh: --rate wants Mbit/s, 8 or more" >&2; exit 2; }
if [[ $random == 1 ]]; then slow="$((RANDOM % nodes)):$((RANDOM % rails))"; fi
parse() { # I:R -> "I R", checked
  [[ "$1" == none ]] && { echo "none none"; return; }
  [[ "$1" =~ ^([0-9]+):([0-9]+)$ && ${BASH_REMATCH[1]} -lt $nodes && ${BASH_REMATCH[2]} -lt $rails ]] \
    || { echo "fleet-rails.sh: '$1' is not NODE:RAIL within 0..$((nodes - 1)):0..$((rails - 1))" >&2; exit 2; }
  echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
}
read -r slow_node slow_rail <<<"$(parse "$slow")"
read -r down_node down_rail <<<"$(parse "$down")"
[[ "$slow" == none || "$slow" != "$down" ]] || { echo "fleet-rails.sh: --slow and --down name the same rail" >&2; exit 2; }

fleet_lab_java
java_opts=(-XX:+UseSerialGC -Xss512k -Xmx192m -XX:MaxDirectMemorySize=600m -XX:TieredStopAtLevel=1 -Xshare:auto)

cleanup
trap '[[ $keep == 1 ]] || cleanup' EXIT
# a veth end: created in the root namespace with a unique name, moved in, renamed to what the node calls it
plug() { # ns bridge inside-name address rate tag
  local ns=$1 br=$2 name=$3 addr=$4 r=$5 h="${prefix}h$6" n="${prefix}n$6"
  ip link add "$h" type veth peer name "$n"
  ip link set "$n" netns "$ns"
  ip -n "$ns" link set dev "$n" name "$name"
  ip link set "$h" master "$br" up
  ip -n "$ns" addr add "$addr/24" dev "$name"
  ip -n "$ns" link set "$name" up
  # what the node sends, and (the bridge's port towards it) what it receives
  tc -n "$ns" qdisc add dev "$name" root tbf rate "${r}mbit" burst 64kb latency 100ms
  tc qdisc add dev "$h" root tbf rate "${r}mbit" burst 64kb latency 100ms
}
ip link add "${prefix}bm" type bridge && ip link set "${prefix}bm" up
for ((r = 0; r < rails; r++)); do ip link add "${prefix}b$r" type bridge && ip link set "${prefix}b$r" up; done
for ((i = 0; i < nodes; i++)); do
  ns="${prefix}-$i"
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  # the management link too, at the rails' rate: an unshaped veth runs as fast as two busy cores allow, and its
  # node rounds would judge the machine's load rather than the links
  plug "$ns" "${prefix}bm" mgmt "$net.100.$((i + 1))" "$rate" "${i}m"
  for ((r = 0; r < rails; r++)); do
    rr=$rate
    [[ "$i" == "$slow_node" && "$r" == "$slow_rail" ]] && rr=$((rate / 2))
    plug "$ns" "${prefix}b$r" "rail$((r + 1))" "$net.$((r + 1)).$((i + 1))" "$rr" "${i}r$r"
  done
done
# NCCL >= 2.28 (and so ncclbench) skips interfaces that are not RUNNING, and a veth gets its carrier a moment after
# "link set up": start no node before every link is running.
for ((t = 0; t < 100; t++)); do
  waiting=0
  for ((i = 0; i < nodes; i++)); do
    for dev in mgmt $(seq -f 'rail%g' 1 "$rails"); do
      [[ "$(ip -n "${prefix}-$i" -o link show dev "$dev")" == *LOWER_UP* ]] || waiting=1
    done
  done
  ((waiting)) || break
  sleep 0.05
done
((waiting == 0)) || { echo "fleet-rails.sh: the namespaces' links did not come up (no carrier) within 5 s" >&2; exit 3; }
[[ "$down_node" == none ]] || ip -n "${prefix}-$down_node" link set "rail$((down_rail + 1))" down

run_dir="${out:-$(mktemp -d /tmp/fleet-rails.XXXXXX)}"
mkdir -p "$run_dir"
catalog="$run_dir/rails-catalog.txt"
{
  echo "# the rail lab's rails: veth reports no speed, so the lab declares them as a site does (docs/fabric-catalog.md)"
  printf 'lab-rail-%sm  ethernet  %s  0.60  0.98  socket  %s Mbit/s tbf-shaped veth rail\n' "$rate" \
    "$(python3 -c "print(round($rate / 8000, 6))")" "$rate"
  for ((r = 0; r < rails; r++)); do echo "site  $net.$((r + 1)).0/24  lab-rail-${rate}m"; done
} >"$catalog"
echo "# rail lab: $nodes nodes x $rails rails at ${rate} Mbit/s (tbf); slow: $([[ $slow_node == none ]] && echo none \
  || echo "${prefix}-$slow_node rail $slow_rail ($((rate / 2)) Mbit/s)"); down: $([[ $down_node == none ]] && echo none \
  || echo "${prefix}-$down_node rail $down_rail")"
echo "# files: $run_dir"
if [[ -z "${NCCLBENCH_TOKEN:-}" ]]; then
  NCCLBENCH_TOKEN="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
  export NCCLBENCH_TOKEN
fi
[[ ${#fleet_args[@]} -gt 0 ]] || fleet_args=(--round-timeout 20 --sizes 1M -n 3)
start=$(date +%s)
pids=()
for ((i = 0; i < nodes; i++)); do
  ip netns exec "${prefix}-$i" env NCCL_SOCKET_IFNAME==mgmt JAVA_TOOL_OPTIONS="${java_opts[*]}" \
    unshare --uts sh -c 'hostname "$0" && exec "$@"' "${prefix}-$i" \
    "${java_cmd[@]}" fleet --backend socket --rank "$i" --world-size "$nodes" --rendezvous "$net.100.1:$port" \
    --node-list "${prefix}-[0-$((nodes - 1))]" --rails 'rail*' --catalog "$catalog" --out "$run_dir" \
    --json "$run_dir/fleet.json" --drain "$run_dir/drain.txt" --html "$run_dir/fleet.html" \
    --junit "$run_dir/fleet-junit.xml" --prometheus "$run_dir/fleet.prom" "${fleet_args[@]}" >"$run_dir/node$i.log" 2>&1 &
  pids+=($!)
done
set +e
wait "${pids[0]}"
code=$?
for ((i = 1; i < nodes; i++)); do wait "${pids[$i]}" 2>/dev/null; done
set -e
secs=$(( $(date +%s) - start ))
grep -v '^Picked up JAVA_TOOL_OPTIONS' "$run_dir/node0.log"
echo "# fleet exit $code after ${secs} s"

json="$run_dir/fleet.json"
[[ -f "$json" ]] || { echo "FAIL: no $json"; exit 1; }
read -r named_slow named_down named_nodes other < <(python3 - "$json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rails = (d.get("rails") or {}).get("verdicts", [])
def names(verdict):
    return ",".join(sorted(f'{v["host"]}:{v["rail"]}' for v in rails if v["verdict"] == verdict)) or "-"
nodes = ",".join(sorted(v["host"] for v in d["node_verdicts"] if v["verdict"] in ("slow", "unreachable"))
                 + sorted(l["a"] + "-" + l["b"] for l in d["link_verdicts"] if l["verdict"] == "bad")) or "-"
other = ",".join(sorted(f'{v["host"]}:{v["rail"]}={v["verdict"]}' for v in rails if v["verdict"] not in ("ok", "slow", "down"))) or "-"
print(names("slow"), names("down"), nodes, other)
EOF
)
want_slow=-; [[ $slow_node == none ]] || want_slow="${prefix}-$slow_node:$slow_rail"
want_down=-; [[ $down_node == none ]] || want_down="${prefix}-$down_node:$down_rail"
want_drain=$( { [[ $slow_node == none ]] || echo "${prefix}-$slow_node"; [[ $down_node == none ]] || echo "${prefix}-$down_node"; } | sort -u | paste -sd, -)
want_drain=${want_drain:--}
want_code=0; [[ "$want_drain" == - ]] || want_code=6
ok=1
echo "check: rails named slow: $named_slow (expected $want_slow)"; [[ "$named_slow" == "$want_slow" ]] || ok=0
echo "check: rails named down: $named_down (expected $want_down)"; [[ "$named_down" == "$want_down" ]] || ok=0
echo "check: rails neither ok, slow nor down: $other (expected -)"; [[ "$other" == - ]] || ok=0
echo "check: nodes named slow or unreachable, links named bad: $named_nodes (expected -)"; [[ "$named_nodes" == - ]] || ok=0
drained=$(grep -v '^#' "$run_dir/drain.txt" 2>/dev/null | sort | paste -sd, -); drained=${drained:--}
echo "check: drain.txt: $drained (expected $want_drain)"; [[ "$drained" == "$want_drain" ]] || ok=0
if [[ $slow_node != none ]]; then
  # a node's drain line joins its bad rails with "; " (a down rail of the same node may come first)
  said=$(grep -cE "^  ${prefix}-$slow_node: (.*; )?rail $slow_rail \(rail$((slow_rail + 1))\): " "$run_dir/node0.log" || true)
  echo "check: the drain lines name ${prefix}-$slow_node's rail $slow_rail: $said line(s)"; [[ "$said" -ge 1 ]] || ok=0
fi
echo "check: exit $code (expected $want_code)"; [[ "$code" == "$want_code" ]] || ok=0
echo "check: ${secs} s"
if [[ $ok == 1 ]]; then echo "PASS"; exit 0; fi
echo "FAIL"; exit 1
