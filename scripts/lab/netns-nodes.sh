#!/usr/bin/env bash
# Two network namespaces that play two GPU nodes of the NIC-misselection case, on one machine:
#   PREFIX0 and PREFIX1, each with eth0 (10.0.0.1 / 10.0.0.2, egress shaped by tc to 500 Mbit/s) created first,
#   then rdma0 (192.168.100.1 / .2, unshaped), so NCCL's default order (kernel order) picks eth0, as in the seed.
#   scripts/lab/netns-nodes.sh up PREFIX      # create (replacing any of the same names)
#   scripts/lab/netns-nodes.sh down PREFIX    # delete
# Needs root and iproute2 (ip, tc). Traffic stays between the two namespaces.
set -euo pipefail
cmd="${1:-}"
prefix="${2:-doctor-lab}"
ns0="${prefix}0"
ns1="${prefix}1"
rate="${LAB_ETH0_RATE:-500mbit}"
case "$cmd" in
  up)
    [[ $(id -u) -eq 0 ]] || { echo "netns-nodes: needs root (network namespaces, tc)" >&2; exit 3; }
    ip netns del "$ns0" 2>/dev/null || true
    ip netns del "$ns1" 2>/dev/null || true
    ip netns add "$ns0"
    ip netns add "$ns1"
    for ns in "$ns0" "$ns1"; do ip -n "$ns" link set lo up; done
    # eth0 first, rdma0 second: the ifindex order is the order NCCL visits them
    ip link add eth0 netns "$ns0" type veth peer name eth0 netns "$ns1"
    ip link add rdma0 netns "$ns0" type veth peer name rdma0 netns "$ns1"
    ip -n "$ns0" addr add 10.0.0.1/24 dev eth0
    ip -n "$ns1" addr add 10.0.0.2/24 dev eth0
    ip -n "$ns0" addr add 192.168.100.1/24 dev rdma0
    ip -n "$ns1" addr add 192.168.100.2/24 dev rdma0
    for ns in "$ns0" "$ns1"; do
      ip -n "$ns" link set eth0 up
      ip -n "$ns" link set rdma0 up
      # burst 256kb: several 64 KB GSO segments pass unsplit; latency 20ms: TCP never starves the shaper
      tc -n "$ns" qdisc add dev eth0 root tbf rate "$rate" burst 256kb latency 20ms
    done
    # A veth reports carrier (RUNNING) a moment after "link set up", and NCCL >= 2.28 skips interfaces that
    # are not RUNNING: a rank started before that would bind lo. Return only once all four ends are running.
    for ((i = 0; i < 100; i++)); do
      down=0
      for ns in "$ns0" "$ns1"; do
        for dev in eth0 rdma0; do
          [[ "$(ip -n "$ns" -o link show dev "$dev")" == *LOWER_UP* ]] || down=1
        done
      done
      ((down)) || break
      sleep 0.05
    done
    ((down == 0)) || { echo "netns-nodes: eth0/rdma0 did not come up (no carrier) within 5 s" >&2; exit 3; }
    ;;
  down)
    ip netns del "$ns0" 2>/dev/null || true
    ip netns del "$ns1" 2>/dev/null || true
    ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 2
    ;;
esac
