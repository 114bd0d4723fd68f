#!/usr/bin/env bash
#SBATCH --job-name=ncclbench-fleet
#SBATCH --nodes=8
#SBATCH --ntasks-per-node=1
#SBATCH --time=00:30:00
#SBATCH --output=ncclbench-fleet-%j.out
# Finds the slow and unreachable nodes of the allocation with `ncclbench fleet` (one task per node, a job step),
# then drains each node it names with the reason, so the scheduler stops placing jobs on it:
#   sbatch -N 64 scripts/launch/sbatch-fleet.sh [fleet flags...]      (e.g. --sizes 64M --sendrecv)
#   scontrol update nodename=X state=drain reason="ncclbench fleet: X slow ... (job N, DIR/fleet.json)"
# Draining needs a Slurm operator (root, SlurmUser, or AdminLevel=Operator); for anyone else scontrol refuses
# and the script prints the command to run. NCCLBENCH_FLEET_NO_DRAIN=1 only lists them. Outputs go to
# $NCCLBENCH_OUT (default: ncclbench-fleet-JOBID under the directory sbatch was called from): fleet.json,
# fleet.html, drain.txt. The jar is NCCLBENCH_JAR when set, else the checkout's target/ncclbench.jar.
# The step's processes share a random secret made here (NCCLBENCH_TOKEN, unless the submitter set it or
# NCCLBENCH_TOKEN_FILE): only they can join the search, so only they can name nodes to drain (docs/security.md).
# Exit: fleet's (0 all good, 6 a node or link named, 3-5 the fleet run failed), or 1 when a drain failed.
set -euo pipefail
# sbatch runs a copy of this file from slurmd's spool: the job's Command names the one that was submitted
self="$(scontrol show job "${SLURM_JOB_ID:-none}" 2>/dev/null | sed -n 's/^ *Command=\([^ ]*\).*/\1/p')" || true
[[ -n "$self" && -f "$self" ]] || self="${BASH_SOURCE[0]}"
# shellcheck source=slurm-common.sh
source "$(dirname "$self")/slurm-common.sh"
slurm_find_jar
slurm_job_secret
cd "${SLURM_SUBMIT_DIR:-.}"
out="${NCCLBENCH_OUT:-$PWD/ncclbench-fleet-${SLURM_JOB_ID:-$$}}"
mkdir -p "$out"
rc=0
with_job_secret srun --ntasks-per-node=1 "$ncclbench" fleet --json "$out/fleet.json" --html "$out/fleet.html" \
  --drain "$out/drain.txt" "$@" || rc=$?
[[ -f "$out/drain.txt" ]] || { echo "ncclbench fleet: no drain list was written (exit $rc): nothing drained" >&2; exit "$rc"; }
# the reason names what fleet found for the node (fleet.json's node_verdicts), within Slurm's reason length
reason_for() {
  python3 - "$out/fleet.json" "$1" <<'PY' 2>/dev/null || echo "named by ncclbench fleet"
import json, sys
d = json.load(open(sys.argv[1]))
n = next((x for x in d.get("node_verdicts", []) if x.get("host") == sys.argv[2]), None)
print(f"{n['verdict']}: {n.get('reason') or ''}".strip(": ") if n else "named by ncclbench fleet")
PY
}
failed=0
while read -r node; do
  [[ -z "$node" ]] && continue
  reason="ncclbench fleet: $node $(reason_for "$node") (job ${SLURM_JOB_ID:-?}, $out/fleet.json)"
  reason="${reason:0:250}"
  if [[ "${NCCLBENCH_FLEET_NO_DRAIN:-0}" == 1 ]]; then
    echo "ncclbench fleet: would drain $node: $reason"
  elif scontrol update nodename="$node" state=drain reason="$reason"; then
    echo "ncclbench fleet: drained $node: $reason"
  else
    echo "ncclbench fleet: could not drain $node; as an operator run: scontrol update nodename=$node state=drain reason=\"$reason\"" >&2
    failed=1
  fi
done <"$out/drain.txt"
((failed)) && exit 1
exit "$rc"
