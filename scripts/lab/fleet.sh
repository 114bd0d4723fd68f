#!/usr/bin/env bash
# The fleet lab: N network namespaces on one bridge, each a "node" running one `ncclbench fleet` process
# (socket backend, --rank/--world-size/--rendezvous), one node's link shaped to a quarter of the others' rate,
# one other pair's path cut to a fortieth (tc htb; netem delay and loss where the kernel has it), and a check
# that fleet names exactly those.
#
#   scripts/lab/fleet.sh [--nodes N] [--slow I|none] [--bad-link I-J|none] [--random] [--kill I]
#                        [--rate MBIT] [--out DIR] [--keep] [-- fleet flags...]
#
#   --nodes N       namespaces fleet-0 .. fleet-(N-1) (default 8)
#   --slow I        node I's link (both directions) at a quarter of --rate (default: none)
#   --bad-link I-J  the path between I and J (both directions) at a fortieth of --rate, through its own HTB class
#                   (this VM's kernel has no sch_netem); with --netem, netem delay 20ms loss 2% on that class too
#                   where the kernel has it (default: none)
#   --random        place one slow node and one bad link (not touching it) at random; says where
#   --kill I        kill -9 node I's process one second after round 1 begins: it must be named unreachable
#   --never I       never start node I: it must be named unreachable (from --node-list), with fleet.json and drain.txt
#   --hang I        the same with SIGSTOP: a hung node, named unreachable once the round limit has passed
#   --rate MBIT     every link's rate (default 200): low enough that this 2-core VM's CPUs are not the limit
#   --out DIR       where the run's files go (default: a temporary folder, printed)
#   --keep          leave the namespaces up afterwards (delete with: scripts/lab/fleet.sh --cleanup)
#   --cleanup       only delete this lab's namespaces and bridge
#   --round-timeout S  fleet's --round-timeout (default: fleet's own); --sizes LIST fleet's --sizes (default: fleet's own)
#   -- FLAGS        more fleet flags (not --round-timeout or --sizes: give those above)
#   --prefix NAME   names of namespaces, veths and the bridge start with this (default fleet; must start with fleet)
#
# Each node runs in its own UTS namespace (unshare --uts) with the host name <prefix>-I, so fleet names nodes by
# the host name it reads itself, as on real machines.
# Prints fleet's own output, then one line per check, and exits 0 when fleet named exactly the shaped node and
# link (unreachable: the killed one) with exit 6, or with nothing shaped named nothing with exit 0; else 1.
# Needs root, ip, tc (iproute2) and java. Java: FLEET_JAVA_CP (a class path, e.g. the test class path) when set,
# else NCCLBENCH_JAR, else target/ncclbench.jar (built with mvn package -DskipTests when missing).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
prefix=fleet
subnet=10.231.14
port=29611
nodes=8 slow=none bad=none random=0 kill=none never=none signal=KILL rate=200 out="" keep=0 netem=0 limit="" sizes=""
fleet_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nodes) nodes="$2"; shift 2 ;;
    --slow) slow="$2"; shift 2 ;;
    --bad-link) bad="$2"; shift 2 ;;
    --random) random=1; shift ;;
    --kill) kill="$2"; signal=KILL; shift 2 ;;
    --hang) kill="$2"; signal=STOP; shift 2 ;;
    --never) never="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --netem) netem=1; shift ;;
    --out) out="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --prefix) prefix="$2"; shift 2 ;;
    --round-timeout) limit="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --cleanup) cleanup_only=1; shift ;;
    --) shift; fleet_args=("$@"); break ;;
    -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
    *) echo "fleet.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# shellcheck source=scripts/lab/fleet-lab.sh
source "$root/scripts/lab/fleet-lab.sh"
cleanup() {
  fleet_lab_down
  ip link del "${prefix}-br" 2>/dev/null || true
}
[[ "$prefix" =~ ^fleet[a-z0-9]{0,3}$ ]] || { echo "fleet.sh: --prefix wants fleet and up to 3 letters or digits" >&2; exit 2; }
if [[ "${cleanup_only:-0}" == 1 ]]; then cleanup; exit 0; fi

if [[ $(id -u) -ne 0 ]]; then echo "fleet.sh: needs root (network namespaces, tc)" >&2; exit 3; fi
for t in ip tc java; do command -v "$t" >/dev/null || { echo "fleet.sh: needs $t" >&2; exit 3; }; done
[[ "$nodes" =~ ^[0-9]+$ && "$nodes" -ge 3 && "$nodes" -le 32 ]] || { echo "fleet.sh: --nodes wants 3 to 32" >&2; exit 2; }
[[ "$rate" =~ ^[0-9]+$ && "$rate" -ge 8 ]] || { echo "fleet.sh: --rate wants Mbit/s, 8 or more" >&2; exit 2; }

if [[ $random == 1 ]]; then
  slow=$((RANDOM % nodes))
  while :; do a=$((RANDOM % nodes)); b=$((RANDOM % nodes)); [[ $a != "$b" && $a != "$slow" && $b != "$slow" ]] && break; done
  bad="$a-$b"
fi
check_node() { [[ "$1" == none ]] || { [[ "$1" =~ ^[0-9]+$ && "$1" -lt $nodes ]] || { echo "fleet.sh: node '$1' is not 0..$((nodes-1))" >&2; exit 2; }; }; }
check_node "$slow"; check_node "$kill"; check_node "$never"
[[ "$never" != 0 ]] || { echo "fleet.sh: --never 0 would leave no rank 0 to lead the search" >&2; exit 2; }
bad_a=none bad_b=none
if [[ "$bad" != none ]]; then
  [[ "$bad" =~ ^([0-9]+)-([0-9]+)$ ]] || { echo "fleet.sh: --bad-link wants I-J, got '$bad'" >&2; exit 2; }
  bad_a=${BASH_REMATCH[1]} bad_b=${BASH_REMATCH[2]}
  check_node "$bad_a"; check_node "$bad_b"
  [[ $bad_a != "$bad_b" ]] || { echo "fleet.sh: a link needs two nodes" >&2; exit 2; }
  [[ $bad_a != "$slow" && $bad_b != "$slow" ]] || { echo "fleet.sh: the bad link must not touch the slow node" >&2; exit 2; }
fi

fleet_lab_java
java_opts=(-XX:+UseSerialGC -Xss512k -Xmx192m -XX:MaxDirectMemorySize=1200m -XX:TieredStopAtLevel=1 -Xshare:auto)

cleanup
trap '[[ $keep == 1 ]] || cleanup' EXIT
ip link add "${prefix}-br" type bridge
ip link set "${prefix}-br" up
shape_rate() { if [[ "$1" == "$slow" ]]; then echo $((rate / 4)); else echo "$rate"; fi; }
for ((i = 0; i < nodes; i++)); do
  ns="${prefix}-$i"
  ip netns add "$ns"
  ip link add "${prefix}-h$i" type veth peer name "${prefix}-n$i"
  ip link set "${prefix}-n$i" netns "$ns"
  ip link set "${prefix}-h$i" master "${prefix}-br" up
  ip -n "$ns" addr add "$subnet.$((i + 1))/24" dev "${prefix}-n$i"
  ip -n "$ns" link set "${prefix}-n$i" up
  ip -n "$ns" link set lo up
  r=$(shape_rate "$i")
  # what the node sends: its own rate; towards the other end of the bad link through netem
  tc -n "$ns" qdisc add dev "${prefix}-n$i" root handle 1: htb default 10
  tc -n "$ns" class add dev "${prefix}-n$i" parent 1: classid 1:1 htb rate "${r}mbit" ceil "${r}mbit" quantum 60000
  tc -n "$ns" class add dev "${prefix}-n$i" parent 1:1 classid 1:10 htb rate "${r}mbit" ceil "${r}mbit" quantum 60000
  peer=none
  [[ "$i" == "$bad_a" ]] && peer=$bad_b
  [[ "$i" == "$bad_b" ]] && peer=$bad_a
  if [[ $peer != none ]]; then
    cut=$((rate * 25)) # kbit: a fortieth of the rate
    tc -n "$ns" class add dev "${prefix}-n$i" parent 1:1 classid 1:20 htb rate "${cut}kbit" ceil "${cut}kbit" quantum 60000
    if [[ $netem == 1 ]]; then
      tc -n "$ns" qdisc add dev "${prefix}-n$i" parent 1:20 handle 20: netem delay 20ms loss 2% limit 10000 \
        || { echo "fleet.sh: this kernel has no netem (sch_netem); run without --netem" >&2; exit 3; }
    fi
    tc -n "$ns" filter add dev "${prefix}-n$i" parent 1: protocol ip prio 1 u32 match ip dst "$subnet.$((peer + 1))/32" flowid 1:20
  fi
  # what the node receives: the bridge's port towards it
  tc qdisc add dev "${prefix}-h$i" root handle 1: htb default 10
  tc class add dev "${prefix}-h$i" parent 1: classid 1:10 htb rate "${r}mbit" ceil "${r}mbit" quantum 60000
done
# NCCL >= 2.28 (and so ncclbench) skips interfaces that are not RUNNING, and a veth gets its carrier a moment
# after "link set up": start no node before every link is running.
for ((t = 0; t < 100; t++)); do
  down=0
  for ((i = 0; i < nodes; i++)); do
    [[ "$(ip -n "${prefix}-$i" -o link show dev "${prefix}-n$i")" == *LOWER_UP* ]] || down=1
  done
  ((down)) || break
  sleep 0.05
done
((down == 0)) || { echo "fleet.sh: the namespaces' links did not come up (no carrier) within 5 s" >&2; exit 3; }

run_dir="${out:-$(mktemp -d /tmp/fleet-lab.XXXXXX)}"
mkdir -p "$run_dir"
echo "# lab: $nodes nodes at ${rate} Mbit/s; slow node: $([[ $slow == none ]] && echo none || echo "${prefix}-$slow ($((rate / 4)) Mbit/s)");" \
  "bad link: $([[ $bad == none ]] && echo none || echo "${prefix}-$bad_a - ${prefix}-$bad_b ($((rate * 25)) kbit/s$([[ $netem == 1 ]] && echo ", netem delay 20ms loss 2%"))");" \
  "$([[ $signal == STOP ]] && echo hung || echo killed): $([[ $kill == none ]] && echo none || echo "${prefix}-$kill");" \
  "never started: $([[ $never == none ]] && echo none || echo "${prefix}-$never")"
echo "# files: $run_dir"
# the nodes share a secret, as sbatch-fleet.sh's do: fleet writes a drain list only for an authenticated search
if [[ -z "${NCCLBENCH_TOKEN:-}" ]]; then
  NCCLBENCH_TOKEN="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
  export NCCLBENCH_TOKEN
fi
start=$(date +%s)
pids=()
flags=()
[[ -n "$limit" ]] && flags+=(--round-timeout "$limit")
[[ -n "$sizes" ]] && flags+=(--sizes "$sizes")
for ((i = 0; i < nodes; i++)); do
  if [[ $i == "$never" ]]; then pids+=(""); continue; fi
  ip netns exec "${prefix}-$i" env NCCL_SOCKET_IFNAME="${prefix}-n" JAVA_TOOL_OPTIONS="${java_opts[*]}" \
    unshare --uts sh -c 'hostname "$0" && exec "$@"' "${prefix}-$i" \
    "${java_cmd[@]}" fleet --backend socket --rank "$i" --world-size "$nodes" --rendezvous "$subnet.1:$port" \
    --node-list "${prefix}-[0-$((nodes - 1))]" --out "$run_dir" --json "$run_dir/fleet.json" --drain "$run_dir/drain.txt" \
    --html "$run_dir/fleet.html" --junit "$run_dir/fleet-junit.xml" --prometheus "$run_dir/fleet.prom" \
    ${flags[@]+"${flags[@]}"} ${fleet_args[@]+"${fleet_args[@]}"} >"$run_dir/node$i.log" 2>&1 &
  pids+=($!)
done
if [[ $kill != none ]]; then
  (
    until grep -q '^# round 1 begins' "$run_dir/node0.log" 2>/dev/null; do sleep 0.2; done
    sleep 1
    kill -s "$signal" "${pids[$kill]}" 2>/dev/null || true
  ) &
fi
set +e
wait "${pids[0]}"
code=$?
set -e
for ((i = 1; i < nodes; i++)); do
  [[ -n "${pids[$i]}" ]] || continue
  if [[ $i == "$kill" && $signal == STOP ]]; then kill -9 "${pids[$i]}" 2>/dev/null || true; fi
  wait "${pids[$i]}" 2>/dev/null || true
done
secs=$(( $(date +%s) - start ))
grep -v '^Picked up JAVA_TOOL_OPTIONS' "$run_dir/node0.log"
echo "# fleet exit $code after ${secs} s"

json="$run_dir/fleet.json"
[[ -f "$json" ]] || { echo "FAIL: no $json"; exit 1; }
expected_nodes=$( { [[ $slow != none ]] && echo "${prefix}-$slow"; [[ $kill != none ]] && echo "${prefix}-$kill"; [[ $never != none ]] && echo "${prefix}-$never"; true; } | sort | paste -sd' ')
expected_links=$( [[ $bad != none ]] && printf '%s\n' "${prefix}-$bad_a" "${prefix}-$bad_b" | sort | paste -sd' ' -s | sed 's/ / - /' || true)
read -r named_nodes named_links rounds < <(python3 - "$json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
nodes = sorted(v["host"] for v in d["node_verdicts"] if v["verdict"] in ("slow", "unreachable"))
links = sorted(" - ".join(sorted([l["a"], l["b"]])) for l in d["link_verdicts"] if l["verdict"] == "bad")
print(",".join(nodes) or "-", ",".join(l.replace(" ", "") for l in links) or "-", d["rounds_used"])
EOF
)
want_nodes=$(echo "$expected_nodes" | tr ' ' ',' ); want_nodes=${want_nodes:--}
want_links=$(echo "$expected_links" | tr -d ' '); want_links=${want_links:--}
want_code=0; [[ "$want_nodes$want_links" != "--" ]] && want_code=6
ok=1
echo "check: nodes named slow or unreachable: $named_nodes (expected $want_nodes)"; [[ "$named_nodes" == "$want_nodes" ]] || ok=0
echo "check: links named bad: $named_links (expected $want_links)"; [[ "$named_links" == "$want_links" ]] || ok=0
echo "check: exit $code (expected $want_code)"; [[ "$code" == "$want_code" ]] || ok=0
# the list's first line names the run ('# ncclbench fleet run ID'); the nodes follow, one a line
drained=$(grep -v '^#' "$run_dir/drain.txt" 2>/dev/null | sort | paste -sd, -); drained=${drained:--}
echo "check: drain.txt: $drained (expected $want_nodes)"; [[ "$drained" == "$want_nodes" ]] || ok=0
echo "check: rounds $rounds, ${secs} s"
if [[ $ok == 1 ]]; then echo "PASS"; exit 0; fi
echo "FAIL"; exit 1
