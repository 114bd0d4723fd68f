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
# What is drained: only when fleet exits 0 or 6, only from the drain list this run wrote (an older one is removed
# before fleet starts, and the list's first line must name this run's id), and only names of this job's own nodes
# (SLURM_JOB_NODELIST, expanded by `scontrol show hostnames`). Any other line (a host range such as gpu[1-4], a comma,
# a blank, a node outside the job) is refused in one line on stderr and in syslog (logger -t ncclbench-fleet).
# Exit: fleet's (0 all good, 6 a node or link named, 3-5 the fleet run failed), or 1 when a drain failed or a line
# was refused.
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
list="$out/drain.txt"
# this run's id: the drain list fleet writes names it on its first line, so no older list is ever taken for this one's
run_id="${SLURM_JOB_ID:-none}-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
# a list left by an earlier run (a fixed NCCLBENCH_OUT, a requeued job) must never be drained in this one's name
rm -f -- "$list"
rc=0
with_job_secret srun --ntasks-per-node=1 "$ncclbench" fleet --json "$out/fleet.json" --html "$out/fleet.html" \
  --drain "$list" --run-id "$run_id" "$@" || rc=$?
# Says why a line of the list is not drained: stderr and syslog, one line.
refuse() {
  echo "ncclbench fleet: $1" >&2
  logger -t ncclbench-fleet -p user.warning -- "job ${SLURM_JOB_ID:-?}: $1" 2>/dev/null || true
}
if [[ "$rc" != 0 && "$rc" != 6 ]]; then
  echo "ncclbench fleet: fleet exited $rc: nothing drained" >&2
  exit "$rc"
fi
[[ -f "$list" ]] || { echo "ncclbench fleet: no drain list was written (exit $rc): nothing drained" >&2; exit "$rc"; }
if [[ "$(head -n 1 -- "$list")" != "# ncclbench fleet run $run_id" ]]; then
  refuse "$list is not this run's drain list (its first line is not '# ncclbench fleet run $run_id'): nothing drained"
  exit 1
fi
# the job's own nodes, one name a line: the only names drained
if [[ -z "${SLURM_JOB_NODELIST:-}" ]] || ! nodes="$(scontrol show hostnames "$SLURM_JOB_NODELIST" 2>/dev/null)" \
  || [[ -z "$nodes" ]]; then
  refuse "the job's node list (SLURM_JOB_NODELIST='${SLURM_JOB_NODELIST:-}') cannot be expanded with scontrol show hostnames: nothing drained"
  exit 1
fi
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
while IFS= read -r node || [[ -n "$node" ]]; do
  # one node's plain name, of this job: scontrol takes gpu[1-4] or a,b as many nodes
  if [[ ! "$node" =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$ ]]; then
    refuse "refused drain list line '$(printf '%s' "$node" | tr -c '[:print:]' '?' | cut -c1-64)': not one node's name (no ranges, commas or blanks): not drained"
    failed=1
    continue
  fi
  if ! grep -qxF -- "$node" <<<"$nodes"; then
    refuse "refused drain list line '$node': not a node of job ${SLURM_JOB_ID:-?} ($SLURM_JOB_NODELIST): not drained"
    failed=1
    continue
  fi
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
done < <(tail -n +2 -- "$list")
((failed)) && exit 1
exit "$rc"
