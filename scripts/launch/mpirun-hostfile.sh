#!/usr/bin/env bash
# A multi-node preflight with Open MPI: one rank per GPU on every host of a hostfile, rank 0 gating the result.
#   scripts/launch/mpirun-hostfile.sh HOSTFILE [GPUS_PER_NODE] [-- preflight flags]
# HOSTFILE lines are Open MPI's: "node01 slots=8". Rank 0's host serves the rendezvous on port 29600 (pass
# --rendezvous HOST:PORT among the flags to choose another). The ranks share a random secret made here (NCCLBENCH_TOKEN
# unless set), passed by name with -x, never as a value on a command line; mpirun carries it to the other hosts in its
# launch message, which crosses the network unencrypted (docs/security.md). Where that network is not yours alone, put
# the secret in a file of your own (mode 0600) at the same path on every host and set NCCLBENCH_TOKEN_FILE to it: then
# only the path travels.
# Exit: preflight's (0 PASS, 6 DEGRADED, 3-5 FAIL).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
hostfile="${1:?usage: mpirun-hostfile.sh HOSTFILE [GPUS_PER_NODE] [-- preflight flags]}"
shift
per_node=8
if [[ $# -gt 0 && "$1" != "--" ]]; then per_node="$1"; shift; fi
[[ "${1:-}" == "--" ]] && shift
nodes=$(grep -cvE '^\s*(#|$)' "$hostfile")
first=$(grep -vE '^\s*(#|$)' "$hostfile" | head -1 | awk '{print $1}')
if [[ -n "${NCCLBENCH_TOKEN_FILE:-}" ]]; then
  secret_var=NCCLBENCH_TOKEN_FILE   # the file's path travels, not the secret
else
  if [[ -z "${NCCLBENCH_TOKEN:-}" ]]; then
    NCCLBENCH_TOKEN="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
    export NCCLBENCH_TOKEN
  fi
  secret_var=NCCLBENCH_TOKEN
fi
exec mpirun --hostfile "$hostfile" -np $((nodes * per_node)) --map-by "ppr:${per_node}:node" --bind-to none \
  -x NCCL_SOCKET_IFNAME -x NCCL_IB_HCA -x NCCL_DEBUG -x PATH -x LD_LIBRARY_PATH -x "$secret_var" \
  "$here/../ncclbench" preflight --rendezvous "$first:29600" "$@"
