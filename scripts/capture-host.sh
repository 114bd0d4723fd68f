#!/usr/bin/env bash
# Captures the files `ncclbench doctor` reads, so a site can attach a host to a ticket and
# `ncclbench doctor --captured DIR` judges it anywhere, exactly as it would judge the live host.
#
#   scripts/capture-host.sh DIR            # a folder (doctor --captured DIR)
#   scripts/capture-host.sh host.tar.gz    # the same folder, tarred (tar xzf, then doctor --captured)
#
# What it copies (as plain files; symlinks become NAME.link holding the target):
#   /sys/class/net/*        ifindex flags operstate type speed address uevent, device and driver links
#   /sys/class/infiniband/* port state, phys_state, rate, link_layer, the non-empty GID table, netdevs
#   PCI (the rail table)    every NVIDIA GPU (vendor 0x10de, class 0x0300xx/0x0302xx) as a /sys/bus/pci/devices link,
#                           and for each GPU, RDMA device and network device every function on its path from the root
#                           complex: class vendor device subsystem ids numa_node max/current_link_speed and _width,
#                           an SR-IOV VF's physfn link (the chain of bridges is what gives NCCL's PCIe distance);
#                           /sys/devices/system/node/node*;
#                           the first processor of /proc/cpuinfo (NCCL's inter-socket bandwidth)
#   /dev/infiniband         the names only
#   /proc                   kernel osrelease and hostname, this shell's limits and status (memlock, CapEff),
#                           mounts, pid 1's and this shell's cgroup; /proc/driver/nvidia version and GPUs
#   /sys/module             nvidia_peermem, mlx5_core versions; /sys/kernel/mm/memory_peers/nv_mem/version
#   /etc/nccl.conf, ~/.nccl.conf (or NCCL_CONF_FILE), /.dockerenv, /run/.containerenv
#   ncclbench/              ip -j addr show, lspci -vvv (when installed; as root for ACS), the NCCL_ variables
#                           (plus HOME and KUBERNETES_SERVICE_HOST), /dev/shm's size, libnccl/libibverbs found
# Nothing else from the environment is kept: NCCL_ variables only, no tokens or keys.
set -euo pipefail
out="${1:-}"
if [[ -z "$out" || "$out" == -h || "$out" == --help ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  [[ -z "$out" ]] && exit 2 || exit 0
fi
tarball=""
if [[ "$out" == *.tar.gz || "$out" == *.tgz ]]; then
  tarball="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
  dir="$(mktemp -d /tmp/ncclbench-capture.XXXXXX)"
  trap 'rm -rf "$dir"' EXIT
else
  dir="$out"
  mkdir -p "$dir"
fi

copy() {  # copy FILE: its content (if readable) to the same path under the tree
  local f="$1"
  [[ -r "$f" && -f "$f" ]] || return 0
  mkdir -p "$dir$(dirname "$f")"
  cat "$f" >"$dir$f" 2>/dev/null || rm -f "$dir$f"
}
link() {  # link PATH: where a symlink points, as PATH.link
  local p="$1"
  [[ -L "$p" ]] || return 0
  mkdir -p "$dir$(dirname "$p")"
  readlink -f "$p" >"$dir$p.link"
}

pci_chain() {  # pci_chain PATH: each PCI function from the root complex down to PATH (a trailing virtio2 dropped)
  local p="$1" f
  while [[ "$p" == /sys/devices/pci* ]]; do
    if [[ "$(basename "$p")" =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$ ]]; then
      for f in class vendor device subsystem_vendor subsystem_device numa_node max_link_speed max_link_width \
               current_link_speed current_link_width; do copy "$p/$f"; done
      link "$p/physfn"
    fi
    p="$(dirname "$p")"
  done
}

for n in /sys/class/net/*; do
  [[ -e "$n/ifindex" ]] || continue
  mkdir -p "$dir$n"
  for f in ifindex flags operstate type speed address uevent; do copy "$n/$f"; done
  link "$n/device"
  [[ -e "$n/device" ]] && { mkdir -p "$dir$n/device"; link "$n/device/driver"; pci_chain "$(readlink -f "$n/device")"; }
done
mkdir -p "$dir/sys/class/net"

for d in /sys/class/infiniband/*; do
  [[ -d "$d" ]] || continue
  mkdir -p "$dir$d"
  link "$d/device"
  [[ -e "$d/device" ]] && pci_chain "$(readlink -f "$d/device")"
  ls "$d/device/net" 2>/dev/null | tr '\n' ' ' >"$dir$d/netdevs" || true
  for p in "$d"/ports/*; do
    for f in state phys_state rate link_layer; do copy "$p/$f"; done
    for g in "$p"/gids/*; do
      [[ -r "$g" ]] || continue
      v="$(cat "$g" 2>/dev/null || true)"
      [[ -n "$v" && "$v" != 0000:0000:0000:0000:0000:0000:0000:0000 ]] || continue
      i="$(basename "$g")"
      copy "$g"
      copy "$p/gid_attrs/types/$i"
      copy "$p/gid_attrs/ndevs/$i"
    done
  done
done

if [[ -d /dev/infiniband ]]; then
  mkdir -p "$dir/dev/infiniband"
  for f in /dev/infiniband/*; do [[ -e "$f" ]] && : >"$dir/dev/infiniband/$(basename "$f")"; done
fi

for f in /proc/sys/kernel/osrelease /proc/sys/kernel/hostname /etc/hostname /proc/mounts /proc/1/cgroup \
         /proc/driver/nvidia/version /sys/module/nvidia_peermem/version /sys/kernel/mm/memory_peers/nv_mem/version \
         /sys/module/mlx5_core/version /etc/nccl.conf /.dockerenv /run/.containerenv; do
  copy "$f"
done
[[ -d /sys/module/nvidia_peermem ]] && mkdir -p "$dir/sys/module/nvidia_peermem"
mkdir -p "$dir/proc/self"
cat /proc/self/limits >"$dir/proc/self/limits"
cat /proc/self/status >"$dir/proc/self/status"
cat /proc/self/cgroup >"$dir/proc/self/cgroup" 2>/dev/null || true
if [[ -n "${NCCL_CONF_FILE:-}" ]]; then copy "$NCCL_CONF_FILE"; elif [[ -n "${HOME:-}" ]]; then copy "$HOME/.nccl.conf"; fi
for g in /proc/driver/nvidia/gpus/*; do
  [[ -d "$g" ]] || continue
  copy "$g/information"
  link "/sys/bus/pci/devices/$(basename "$g" | tr 'A-F' 'a-f')"
done
for d in /sys/bus/pci/devices/*; do
  [[ "$(cat "$d/vendor" 2>/dev/null)" == 0x10de && "$(cat "$d/class" 2>/dev/null)" =~ ^0x030[02] ]] || continue
  link "$d"
  pci_chain "$(readlink -f "$d")"
done
for n in /sys/devices/system/node/node*; do [[ -d "$n" ]] && mkdir -p "$dir$n"; done
if [[ -r /proc/cpuinfo ]]; then
  mkdir -p "$dir/proc"
  awk 'NF == 0 { exit } { print }' /proc/cpuinfo >"$dir/proc/cpuinfo"
fi

x="$dir/ncclbench"
mkdir -p "$x"
if command -v ip >/dev/null; then ip -j addr show >"$x/ip-addr.json"; fi
if command -v lspci >/dev/null; then lspci -vvv >"$x/lspci-vvv.txt" 2>/dev/null || true; fi
env | grep -E '^(NCCL_[A-Z0-9_]*|HOME|KUBERNETES_SERVICE_HOST)=' >"$x/env" || true
df -B1 --output=size /dev/shm 2>/dev/null | tail -1 | tr -d ' ' >"$x/dev-shm-bytes" || rm -f "$x/dev-shm-bytes"
{
  nccl="$(ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 / && !f {print $NF; f = 1}')"
  [[ -z "$nccl" && -n "${NCCL_HOME:-}" && -f "$NCCL_HOME/lib/libnccl.so.2" ]] && nccl="$NCCL_HOME/lib/libnccl.so.2"
  if [[ -n "$nccl" ]]; then
    echo "nccl_library=$nccl"
    real="$(readlink -f "$nccl")"
    [[ "$real" =~ libnccl\.so\.([0-9]+\.[0-9]+\.[0-9]+)$ ]] && echo "nccl=${BASH_REMATCH[1]}"
  fi
  verbs="$(ldconfig -p 2>/dev/null | awk '/libibverbs\.so\.1 / && !f {print $NF; f = 1}')"
  echo "verbs=$verbs"
  command -v ofed_info >/dev/null && echo "ofed=$(ofed_info -s 2>/dev/null | tr -d ':')"
} >"$x/versions"

if [[ -n "$tarball" ]]; then
  tar -C "$dir" -czf "$tarball" .
  echo "capture-host: wrote $tarball (tar xzf it, then: ncclbench doctor --captured DIR)"
else
  echo "capture-host: wrote $dir (ncclbench doctor --captured $dir)"
fi
