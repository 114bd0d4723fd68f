#!/usr/bin/env bash
# Slurm prolog: an ncclbench preflight on this node, on its own (one process, no peers), before the job starts; a
# node that FAILs is drained with the verdict line as the reason, so the scheduler stops placing jobs on it, and the
# prolog exits non-zero, so Slurm requeues the job (held unless SchedulerParameters=nohold_on_prolog_fail).
# Install in slurm.conf (it runs as root on every allocated node; PrologFlags=Alloc runs it at allocation):
#   Prolog=/etc/slurm/prolog.d/ncclbench.sh        # a wrapper that sets the variables below and execs this file
# slurmd gives a prolog Slurm's variables, not its own environment: set NCCLBENCH_JAR and any NCCL_* in the wrapper.
# By hand, one independent check per node of an allocation (each task runs its own one-process preflight):
#   NCCLBENCH_JAR=$PWD/target/ncclbench.jar srun -N "$SLURM_JOB_NUM_NODES" --ntasks-per-node=1 scripts/launch/slurm-prolog.sh
# Environment:
#   NCCLBENCH_JAR       the jar to run (default: an unpacked bundle's lib/ncclbench.jar, run by the bundle's own
#                       runtime, else the checkout's target/ncclbench.jar); never built here: a missing
#                       jar is reported and the node is left alone (exit 0), since it says nothing about the node
#   NCCLBENCH_PREFLIGHT extra preflight flags (e.g. "--baseline h200-node --fabric nvlink4")
#   NCCLBENCH_OUT       where results, JUnit and the node-exporter textfile go (default: /var/tmp/ncclbench/NODE)
#   NCCLBENCH_DRAIN_ON  FAIL (default) or DEGRADED: the worst verdict that still lets the node run jobs
#   NCCLBENCH_JAVA      java to use (default: the bundle's runtime/bin/java, else $JAVA_HOME/bin/java, else java on PATH)
# Exit: 0 PASS or DEGRADED (the job runs; DEGRADED is reported), 1 FAIL (the node is drained, the job requeued);
# a usage error in NCCLBENCH_PREFLIGHT or an internal error is reported and exits 0 (not the node's fault).
set -uo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
jar="${NCCLBENCH_JAR:-$here/../../target/ncclbench.jar}"
bundle="$(cd "$here/../.." && pwd)"
# in an unpacked bundle (scripts/package.sh) its own jar and runtime: a GPU node has no java of its own
if [[ -z "${NCCLBENCH_JAR:-}" && -f "$bundle/lib/ncclbench.jar" && -x "$bundle/runtime/bin/java" ]]; then
  jar="$bundle/lib/ncclbench.jar"
  : "${NCCLBENCH_JAVA:=$bundle/runtime/bin/java}"
fi
node="${SLURMD_NODENAME:-$(hostname -s)}"
out="${NCCLBENCH_OUT:-/var/tmp/ncclbench/$node}"
drain_on="${NCCLBENCH_DRAIN_ON:-FAIL}"
java="${NCCLBENCH_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"
java="${java:-java}"
mkdir -p "$out"
if [[ ! -f "$jar" ]]; then
  echo "$node: ncclbench prolog: no jar at $jar (set NCCLBENCH_JAR): no check ran, the node is left as it was" \
    | tee "$out/preflight.err" >&2
  exit 0
fi
# a one-process check whatever launcher started us (srun by hand sets SLURM_PROCID/SLURM_NTASKS): --world-size 1
rm -f "$out/preflight.xml" "$out/ncclbench.prom"
# shellcheck disable=SC2086  # NCCLBENCH_PREFLIGHT is a list of flags
line="$("$java" ${NCCLBENCH_JAVA_OPTS:-} -jar "$jar" preflight --rank 0 --world-size 1 --out "$out/runs" \
  --junit "$out/preflight.xml" --prometheus "$out/ncclbench.prom" ${NCCLBENCH_PREFLIGHT:-} \
  2>"$out/preflight.err" | tee "$out/preflight.out" | tail -1)"
rc=${PIPESTATUS[0]}
verdict="${line%%:*}"
if [[ "$verdict" != PASS && "$verdict" != DEGRADED && "$verdict" != FAIL ]]; then
  # no verdict line: preflight stopped before it (a usage error, a crash); its last error line says why
  line="FAIL: no verdict (exit $rc): $(grep -v '^\s*$' "$out/preflight.err" | tail -1)"
fi
reason="ncclbench preflight: $line"
drain() {
  if scontrol update NodeName="$node" State=DRAIN Reason="${reason:0:250}"; then
    echo "$node: drained: $reason" >&2
  else
    echo "$node: could not drain (scontrol failed): $reason" >&2
  fi
}
case "$rc" in
  0) exit 0 ;;
  6) if [[ "$drain_on" == DEGRADED ]]; then drain; exit 1; fi
     echo "$node: $reason" >&2; exit 0 ;;
  3|4|5) drain; exit 1 ;;
  # a usage error (2) or a fault of the tool (1) says nothing about the node: reported, the node left alone
  *) echo "$node: ncclbench prolog: preflight did not judge the node: $line" | tee -a "$out/preflight.err" >&2; exit 0 ;;
esac
