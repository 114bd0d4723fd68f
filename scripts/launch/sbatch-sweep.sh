#!/usr/bin/env bash
#SBATCH --job-name=ncclbench-sweep
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --time=00:30:00
#SBATCH --output=ncclbench-sweep-%j.out
# A sweep as a Slurm job, one rank per task, as nccl-tests is run (srun all_reduce_perf ...): the arguments are
# the sweep's; the #SBATCH lines above are defaults that sbatch's own flags override:
#   sbatch -N 4 --ntasks-per-node=1 scripts/launch/sbatch-sweep.sh --backend socket -b 1M -e 1G -f 2
# Rank 0's host is the first node of the step, its port derived from the job and step ids (no --rendezvous,
# no MASTER_ADDR, no PMI). The jar is NCCLBENCH_JAR when set, else the checkout's target/ncclbench.jar (built
# beforehand: a job never builds). Results go to --json/--out as given, else results/runs under the directory
# sbatch was called from. scancel or the time limit: every rank gets SIGTERM, rank 0 writes what it measured with
# status interrupted (exit 143), then Slurm sends SIGKILL after KillWait. The step's processes share a random secret
# made here (NCCLBENCH_TOKEN, unless the submitter set it or NCCLBENCH_TOKEN_FILE): only they can join the rendezvous.
set -euo pipefail
# sbatch runs a copy of this file from slurmd's spool: the job's Command names the one that was submitted
self="$(scontrol show job "${SLURM_JOB_ID:-none}" 2>/dev/null | sed -n 's/^ *Command=\([^ ]*\).*/\1/p')" || true
[[ -n "$self" && -f "$self" ]] || self="${BASH_SOURCE[0]}"
# shellcheck source=slurm-common.sh
source "$(dirname "$self")/slurm-common.sh"
slurm_find_jar
slurm_job_secret
cd "${SLURM_SUBMIT_DIR:-.}"
# exec: the step is all that runs from here, so the secret in this environment reaches the step alone
[[ -n "$job_secret" ]] && export NCCLBENCH_TOKEN="$job_secret"
exec srun "$ncclbench" sweep "$@"
