#!/usr/bin/env bash
# A real Slurm cluster on one machine (Debian's slurm-wlm 22.05 and munge): slurmctld and munged in the root
# namespace, one slurmd per network namespace slurm-node0 .. slurm-node(N-1), each with its own host name
# (a UTS namespace: node0 ..), its own spool, pid and log files (slurm.conf's %n) and the NIC-misselection lab's
# two interfaces: eth0 (created first, so NCCL's default order picks it; shaped by tc to 500 Mbit/s) on the bridge
# slurm-eth (10.247.1.0/24, the NodeAddr and the host names), then rdma0 (unshaped) on slurm-rdma (10.247.2.0/24).
# Cgroup-free (proctrack/linuxproc, task/none), so it runs in a container.
#   scripts/lab/slurm.sh up [--nodes N]        # N nodes (default 4); replaces a cluster of ours left running
#   scripts/lab/slurm.sh prolog FILE|none      # Prolog= (PrologFlags=Alloc: at allocation), then reconfigure
#   scripts/lab/slurm.sh status                # daemons, namespaces, sinfo; exit 0 only when all are up
#   scripts/lab/slurm.sh down                  # stops every daemon, deletes the namespaces, bridges and files
# After `up`, sinfo, srun, sbatch, scancel and scontrol work from the root namespace (/etc/slurm/slurm.conf is
# this cluster's; `up` refuses to replace one it did not write). Node K resolves nodeJ to 10.247.1.(J+1)
# through /etc/netns/slurm-nodeK/hosts. Tasks start in the node's namespaces with the submitter's environment.
# Files: /run/slurm-lab (config, state, logs: slurmctld.log, nodeK/slurmd.log). KillWait is 5 s.
# Needs root, iproute2 (ip, tc), util-linux (unshare) and: apt-get install slurm-wlm munge. Exit 0 ok, 2 usage,
# 3 not root or Slurm missing, 1 when the cluster did not come up (the logs' last lines are printed).
set -Eeuo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
run=/run/slurm-lab
conf=/etc/slurm/slurm.conf
mark="# written by ncclbench scripts/lab/slurm.sh"
eth=10.247.1
rdma=10.247.2
rate="${LAB_ETH0_RATE:-500mbit}"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }
die() { echo "slurm.sh: $1" >&2; exit "${2:-1}"; }

need() {
  [[ $(id -u) -eq 0 ]] || die "needs root (network namespaces, daemons running as root)" 3
  local m=()
  for c in slurmctld slurmd munged srun sinfo; do command -v "$c" >/dev/null 2>&1 || m+=("$c"); done
  ((${#m[@]} == 0)) || die "${m[*]} not found: apt-get install slurm-wlm munge" 3
}

nodes_up() {  # the node count of the running cluster, from our namespaces
  ip netns list 2>/dev/null | awk '{print $1}' | grep -c '^slurm-node[0-9]*$' || true
}

pid_alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop_pidfile() {  # stop_pidfile FILE: TERM the daemon it names, KILL it after 5 s
  local f="$1" p
  [[ -f "$f" ]] || return 0
  p="$(cat "$f")"
  if kill -0 "$p" 2>/dev/null; then
    kill "$p" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  fi
  rm -f "$f"
}

down() {
  [[ $(id -u) -eq 0 ]] || die "needs root" 3
  local d ns
  for d in "$run"/node*/; do [[ -d "$d" ]] && stop_pidfile "$d/slurmd.pid"; done
  # tasks a killed slurmd left behind run in the nodes' namespaces: end them before the namespaces go
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep '^slurm-node[0-9]*$' || true); do
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
  stop_pidfile "$run/slurmctld.pid"
  stop_pidfile "$run/munge/munged.pid"
  for l in slurm-eth slurm-rdma; do ip link del "$l" 2>/dev/null || true; done
  if [[ -f "$conf" ]] && head -1 "$conf" | grep -qF "$mark"; then rm -f "$conf"; fi
  rm -rf "$run"
}

write_conf() {  # write_conf N PROLOG
  local n="$1" prolog="$2" port="$3"
  {
    echo "$mark: scripts/lab/slurm.sh down removes it"
    echo "ClusterName=slurmlab"
    echo "SlurmctldHost=$(hostname -s)($eth.254)"
    echo "SlurmctldPort=$port"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    echo "AuthInfo=socket=$run/munge/munge.socket.2"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "MpiDefault=none"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core"
    echo "SchedulerType=sched/backfill"
    echo "ReturnToService=2"
    echo "KillWait=5"
    echo "MinJobAge=30"
    echo "InactiveLimit=0"
    echo "SlurmdTimeout=60"
    echo "StateSaveLocation=$run/ctld"
    echo "SlurmctldPidFile=$run/slurmctld.pid"
    echo "SlurmctldLogFile=$run/slurmctld.log"
    echo "SlurmdSpoolDir=$run/%n/spool"
    echo "SlurmdPidFile=$run/%n/slurmd.pid"
    echo "SlurmdLogFile=$run/%n/slurmd.log"
    [[ -n "$prolog" ]] && { echo "Prolog=$prolog"; echo "PrologFlags=Alloc"; }
    local cpus
    cpus="$(nproc)"
    echo "NodeName=DEFAULT CPUs=$cpus RealMemory=1000 State=UNKNOWN"
    for ((k = 0; k < n; k++)); do echo "NodeName=node$k NodeAddr=$eth.$((k + 1)) NodeHostname=node$k"; done
    echo "PartitionName=lab Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES"
  } >"$conf.tmp"
  mv "$conf.tmp" "$conf"
}

free_port() {  # 6817 when it is free in this namespace, else one the kernel hands out
  python3 - <<'PY'
import socket
for p in (6817, 0):
    s = socket.socket()
    try:
        s.bind(("", p)); print(s.getsockname()[1]); break
    except OSError:
        pass
    finally:
        s.close()
PY
}

node_up() {  # node_up K: namespace, interfaces, hosts file, slurmd
  local k="$1" n="$2" ns="slurm-node$1"
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  # eth0 first, rdma0 second: the ifindex order is the order NCCL visits them
  ip link add "slurm-e$k" type veth peer name eth0 netns "$ns"
  ip link add "slurm-r$k" type veth peer name rdma0 netns "$ns"
  ip link set "slurm-e$k" master slurm-eth up
  ip link set "slurm-r$k" master slurm-rdma up
  ip -n "$ns" addr add "$eth.$((k + 1))/24" dev eth0
  ip -n "$ns" addr add "$rdma.$((k + 1))/24" dev rdma0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set rdma0 up
  # burst 256kb: several 64 KB GSO segments pass unsplit; latency 20ms: TCP never starves the shaper
  tc -n "$ns" qdisc add dev eth0 root tbf rate "$rate" burst 256kb latency 20ms
  mkdir -p "/etc/netns/$ns" "$run/node$k/spool"
  {
    echo "127.0.0.1 localhost"
    echo "$eth.254 $(hostname -s)"
    for ((j = 0; j < n; j++)); do echo "$eth.$((j + 1)) node$j"; done
  } >"/etc/netns/$ns/hosts"
  # ip netns exec gives a mount namespace with /etc/netns/$ns/hosts over /etc/hosts; unshare a UTS one for the name
  ip netns exec "$ns" unshare --uts -- sh -c "mount -t tmpfs slurm-cgroup /sys/fs/cgroup && mkdir /sys/fs/cgroup/systemd && mount -t cgroup -o none,name=systemd slurm-cgroup /sys/fs/cgroup/systemd && hostname node$k && exec slurmd -N node$k" \
    >>"$run/node$k/slurmd.out" 2>&1 </dev/null
}

up() {
  need
  local n=4 prolog=""
  while (($#)); do
    case "$1" in
      --nodes) [[ "${2:-}" =~ ^[1-9][0-9]?$ && "$2" -le 64 ]] || die "--nodes wants 1 to 64, got '${2:-}'" 2; n="$2"; shift 2 ;;
      --prolog) prolog="$(realpath "${2:?--prolog FILE}")"; shift 2 ;;
      *) die "unknown argument '$1' (up [--nodes N] [--prolog FILE])" 2 ;;
    esac
  done
  if [[ -f "$conf" ]] && ! head -1 "$conf" | grep -qF "$mark"; then
    die "$conf exists and is not this lab's: a real Slurm is configured here; not replacing it" 3
  fi
  down
  trap 'echo "slurm.sh: up failed; cleaning up" >&2; tail -n 5 "$run"/*.log "$run"/node*/slurmd.log "$run"/node*/slurmd.out >&2 2>/dev/null; down' ERR
  mkdir -p "$run/ctld" "$run/munge" /etc/slurm
  chmod 755 "$run"
  # a key of our own: the lab's daemons trust each other only
  dd if=/dev/urandom of="$run/munge/munge.key" bs=1024 count=1 status=none
  chown -R munge:munge "$run/munge"
  chmod 755 "$run/munge"
  chmod 600 "$run/munge/munge.key"
  runuser -u munge -- munged --socket="$run/munge/munge.socket.2" --key-file="$run/munge/munge.key" \
    --log-file="$run/munge/munged.log" --pid-file="$run/munge/munged.pid" --seed-file="$run/munge/munged.seed"
  write_conf "$n" "$prolog" "$(free_port)"
  ip link add slurm-eth type bridge
  ip link add slurm-rdma type bridge
  ip addr add "$eth.254/24" dev slurm-eth
  ip addr add "$rdma.254/24" dev slurm-rdma
  ip link set slurm-eth up
  ip link set slurm-rdma up
  slurmctld
  for ((k = 0; k < n; k++)); do node_up "$k" "$n"; done
  # every node registers and turns idle; slurmctld answers by then
  local idle=0
  for ((i = 0; i < 300; i++)); do
    idle="$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)"
    ((idle == n)) && break
    sleep 0.1
  done
  if ((idle != n)); then
    sinfo -N >&2 || true
    false
  fi
  trap - ERR
  echo "slurm.sh: $n nodes up (node0..node$((n - 1))): $(sinfo -h -o '%P %D %t %N' | tr '\n' ' ')"
}

set_prolog() {
  need
  [[ -f "$conf" ]] && head -1 "$conf" | grep -qF "$mark" || die "no cluster of ours is up (scripts/lab/slurm.sh up)" 3
  local p="${1:?prolog FILE|none}"
  sed -i '/^Prolog=/d; /^PrologFlags=/d' "$conf"
  if [[ "$p" != none ]]; then
    p="$(realpath "$p")"
    [[ -x "$p" ]] || die "$p is not an executable file" 2
    sed -i "s|^NodeName=DEFAULT|Prolog=$p\nPrologFlags=Alloc\nNodeName=DEFAULT|" "$conf"
  fi
  scontrol reconfigure
}

status() {
  local ok=0 n
  n="$(nodes_up)"
  pid_alive "$run/munge/munged.pid" && echo "munged: running" || { echo "munged: not running"; ok=1; }
  pid_alive "$run/slurmctld.pid" && echo "slurmctld: running" || { echo "slurmctld: not running"; ok=1; }
  ((n > 0)) || { echo "nodes: none"; ok=1; }
  for ((k = 0; k < n; k++)); do
    pid_alive "$run/node$k/slurmd.pid" && echo "node$k: slurmd running in slurm-node$k" \
      || { echo "node$k: slurmd not running"; ok=1; }
  done
  ((ok == 0)) && sinfo
  return "$ok"
}

case "${1:-}" in
  up) shift; up "$@" ;;
  down) down ;;
  status) status ;;
  prolog) shift; set_prolog "$@" ;;
  -h|--help) usage 0 ;;
  *) usage 2 ;;
esac
