#!/usr/bin/env bash
# Writes nccl-tests' binary names into DIR as launchers of `ncclbench sweep --collective NAME`, so that scripts that
# call all_reduce_perf, all_gather_perf, ... (nccl-tests v2.19.6's src/Makefile BIN_FILES_LIST) run ncclbench with
# the same flags:   scripts/nccl-tests-names.sh ~/bin && PATH=~/bin:$PATH all_reduce_perf -b 8 -e 128M -f 2 -g 1
# alltoallv_perf and hypercube_perf included (hypercube runs on a power-of-two number of ranks, as in nccl-tests).
set -euo pipefail
if [[ $# -ne 1 || "$1" == -* ]]; then
  echo "usage: $0 DIR   (writes all_reduce_perf, all_gather_perf, ... into DIR)" >&2
  exit 2
fi
dir="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$dir"
for name in all_reduce all_gather broadcast reduce_scatter reduce alltoall alltoallv scatter gather sendrecv hypercube; do
  f="$dir/${name}_perf"
  cat > "$f" <<LAUNCHER
#!/usr/bin/env bash
# nccl-tests' ${name}_perf, run by ncclbench (written by scripts/nccl-tests-names.sh)
exec "\${NCCLBENCH:-$root/scripts/ncclbench}" sweep --collective $name "\$@"
LAUNCHER
  chmod +x "$f"
done
echo "wrote 11 nccl-tests names into $dir"
