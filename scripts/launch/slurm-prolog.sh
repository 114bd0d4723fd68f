#!/usr/bin/env bash
# Slurm prolog: one ncclbench preflight per node of the job before it starts; a node that FAILs is drained with
# the reason, so the scheduler stops placing jobs on it. Install as Prolog= in slurm.conf (runs as root on every
# allocated node), or run it by hand for an allocation:
#   srun --ntasks-per-node=1 -N "$SLURM_JOB_NUM_NODES" scripts/launch/slurm-prolog.sh
# Environment:
#   NCCLBENCH           the launcher (default: scripts/ncclbench beside this file)
#   NCCLBENCH_PREFLIGHT extra preflight flags (e.g. "--baseline h200-node --fabric nvlink4")
#   NCCLBENCH_OUT       where results, JUnit and the node-exporter textfile go (default: /var/tmp/ncclbench)
#   NCCLBENCH_DRAIN_ON  FAIL (default) or DEGRADED: the worst verdict that still lets the node run jobs
# Exit: 0 PASS or DEGRADED (the job runs; DEGRADED is reported), non-zero FAIL (Slurm requeues the job).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ncclbench="${NCCLBENCH:-$here/../ncclbench}"
out="${NCCLBENCH_OUT:-/var/tmp/ncclbench}"
node="${SLURMD_NODENAME:-$(hostname -s)}"
drain_on="${NCCLBENCH_DRAIN_ON:-FAIL}"
mkdir -p "$out"
# shellcheck disable=SC2086  # NCCLBENCH_PREFLIGHT is a list of flags
line="$("$ncclbench" preflight --out "$out/runs" --junit "$out/preflight.xml" \
  --prometheus "$out/ncclbench.prom" ${NCCLBENCH_PREFLIGHT:-} 2>"$out/preflight.err" | tee "$out/preflight.out" | tail -1)"
rc=${PIPESTATUS[0]}
verdict="${line%%:*}"
reason="ncclbench preflight: ${line:-no verdict (exit $rc), see $out/preflight.err}"
drain() {
  if command -v scontrol >/dev/null 2>&1; then
    scontrol update NodeName="$node" State=DRAIN Reason="${reason:0:250}"
  fi
  echo "$node: drained: $reason" >&2
}
case "$rc" in
  0) exit 0 ;;
  6) [[ "$drain_on" == DEGRADED ]] && { drain; exit 1; }
     echo "$node: $reason" >&2; exit 0 ;;
  *) [[ "$verdict" == FAIL || "$rc" -ge 3 ]] && drain; exit 1 ;;
esac
