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
#   NCCLBENCH_OUT       where results, JUnit and the node-exporter textfile go (default: /var/lib/ncclbench/NODE); it
#                       runs as root, so this folder must be root's alone: the prolog creates it (and any missing
#                       parent) root-owned, 0755, and refuses (a "no check ran" below) one that is, or lies under, a
#                       symbolic link, or that is not owned by root or may be written by others (a parent may be a
#                       root-owned sticky folder such as /var/tmp). Never a folder users can create first: one made by
#                       a user in /var/tmp could hold links that root would write through. Its files are written to
#                       a new temporary name in it and renamed into place, never opened through a link.
#   NCCLBENCH_DRAIN_ON  FAIL (default) or DEGRADED: the worst verdict that still lets the node run jobs
#   NCCLBENCH_JAVA      java to use (default: the bundle's runtime/bin/java, else $JAVA_HOME/bin/java, else java on PATH)
#   NCCLBENCH_UNCHECKED leave (default) or drain: what to do when the check could not run at all (no jar, a bad
#                       NCCLBENCH_PREFLIGHT, a crash of the tool). Either way it is never silent: a syslog line
#                       (logger -t ncclbench-prolog) and the node's Comment (scontrol show node) say why, and the
#                       Comment is cleared by the next check that judges the node. "drain" trades an idle node for
#                       never running a job on an unchecked one.
# The check's rendezvous gets a random secret made here, in the check's environment alone (docs/security.md).
# Exit: 0 PASS or DEGRADED (the job runs; DEGRADED is reported), 1 FAIL (the node is drained, the job requeued);
# a check that could not run (no jar, a usage error in NCCLBENCH_PREFLIGHT, an internal error) is said in syslog and
# the node's Comment, then exits 0 (NCCLBENCH_UNCHECKED=leave) or drains and exits 1 (NCCLBENCH_UNCHECKED=drain).
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
out="${NCCLBENCH_OUT:-/var/lib/ncclbench/$node}"
drain_on="${NCCLBENCH_DRAIN_ON:-FAIL}"
java="${NCCLBENCH_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}"
java="${java:-java}"
unchecked_do="${NCCLBENCH_UNCHECKED:-leave}"
# Root's own folder for the check's files, made here: every part of the path a real folder (no symbolic link), owned by
# root and not writable by others (a root-owned sticky folder such as /var/tmp may be a parent: no one else can rename
# or remove what root made in it); $out itself root's, 0755 or less. Sets out_ok=1, or says in $why why not.
out_ok=0
why=""
root_folder() {
  local path="$1" part="" comp uid mode
  local -a comps
  [[ "$path" == /* ]] || { why="NCCLBENCH_OUT=$path is not an absolute path"; return 1; }
  IFS=/ read -r -a comps <<<"${path#/}"
  for comp in "" "${comps[@]}"; do
    [[ "$comp" == . ]] && continue
    [[ "$comp" == .. ]] && { why="NCCLBENCH_OUT=$path has a '..' in it"; return 1; }
    [[ -z "$comp" && -n "$part" ]] && continue
    part="${part%/}/$comp"
    if [[ ! -e "$part" && ! -L "$part" ]]; then
      mkdir -m 0755 -- "$part" 2>/dev/null || true   # a part someone made meanwhile is judged below, as any other
    fi
    if [[ -L "$part" ]]; then why="$part is a symbolic link"; return 1; fi
    [[ -d "$part" ]] || { why="$part is not a folder"; return 1; }
    read -r uid mode < <(stat -c '%u %a' -- "$part")
    [[ "$uid" == 0 ]] || { why="$part belongs to uid $uid, not root"; return 1; }
    if (( 8#$mode & 8#022 )) && ! (( 8#$mode & 8#1000 )); then
      why="$part may be written by others (mode $mode)"; return 1
    fi
  done
  # the folder itself: root's alone, sticky or not
  if (( 8#$mode & 8#022 )); then why="$part may be written by others (mode $mode)"; return 1; fi
  return 0
}
# Writes stdin to $out/NAME through a new temporary file renamed over it: a link at NAME is replaced, never followed.
put() {
  local tmp
  tmp="$(mktemp "$out/.$1.XXXXXX")" || return 1
  cat >"$tmp" && chmod 0644 "$tmp" && mv -f -T -- "$tmp" "$out/$1" || { rm -f -- "$tmp"; return 1; }
}
# Where an admin looks: syslog and the node's Comment (a prolog's stderr is in no log by default)
tell() {
  logger -t ncclbench-prolog -p user.warning -- "$node: $1" 2>/dev/null || true
  scontrol update NodeName="$node" Comment="${1:0:250}" 2>/dev/null || true
}
# A check that could not run: told where an admin sees it, then the node left or drained as NCCLBENCH_UNCHECKED says
unchecked() {
  local said="ncclbench prolog: no check ran: $1"
  echo "$node: $said" >&2
  if ((out_ok)); then
    { [[ -f "$out/preflight.err" && ! -L "$out/preflight.err" ]] && cat -- "$out/preflight.err"; echo "$node: $said"; } \
      | put preflight.err
  fi
  tell "$said"
  if [[ "$unchecked_do" == drain ]]; then
    reason="$said"
    drain
    exit 1
  fi
  exit 0
}
drain() {
  if scontrol update NodeName="$node" State=DRAIN Reason="${reason:0:250}"; then
    echo "$node: drained: $reason" >&2
  else
    echo "$node: could not drain (scontrol failed): $reason" >&2
  fi
}
# a judged node: an earlier "no check ran" Comment of ours no longer holds (an admin's own Comment is kept)
judged() {
  if scontrol show node "$node" 2>/dev/null | grep -q 'Comment=ncclbench prolog: no check ran'; then
    scontrol update NodeName="$node" Comment="" 2>/dev/null || true
  fi
}
if [[ "$unchecked_do" != leave && "$unchecked_do" != drain ]]; then
  unchecked_do=leave
  unchecked "NCCLBENCH_UNCHECKED is '${NCCLBENCH_UNCHECKED}', not leave or drain"
fi
if ! root_folder "$out"; then
  unchecked "will not write as root where others could: $why (NCCLBENCH_OUT: a folder of root's alone, e.g. /var/lib/ncclbench/$node)"
fi
out_ok=1
if [[ ! -f "$jar" ]]; then
  unchecked "no jar at $jar (set NCCLBENCH_JAR)"
fi
# a one-process check whatever launcher started us (srun by hand sets SLURM_PROCID/SLURM_NTASKS): --world-size 1
rm -f -- "$out/preflight.xml" "$out/ncclbench.prom"
# a secret of its own for the check's rendezvous (one process: it never leaves it), in its environment alone
secret="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
# the check's output goes to new temporary files in root's folder, renamed into place after (never through a link);
# the tool writes its own files (--out, --junit, --prometheus) the same way
err_tmp="$(mktemp "$out/.preflight.err.XXXXXX")" && out_tmp="$(mktemp "$out/.preflight.out.XXXXXX")" \
  || unchecked "cannot make a temporary file in $out"
# shellcheck disable=SC2086  # NCCLBENCH_PREFLIGHT is a list of flags
line="$(NCCLBENCH_TOKEN="$secret" "$java" ${NCCLBENCH_JAVA_OPTS:-} -jar "$jar" preflight --rank 0 --world-size 1 --out "$out/runs" \
  --junit "$out/preflight.xml" --prometheus "$out/ncclbench.prom" ${NCCLBENCH_PREFLIGHT:-} \
  2>"$err_tmp" | tee "$out_tmp" | tail -1)"
rc=${PIPESTATUS[0]}
chmod 0644 "$err_tmp" "$out_tmp"
mv -f -T -- "$err_tmp" "$out/preflight.err"
mv -f -T -- "$out_tmp" "$out/preflight.out"
verdict="${line%%:*}"
if [[ "$verdict" != PASS && "$verdict" != DEGRADED && "$verdict" != FAIL ]]; then
  # no verdict line: preflight stopped before it (a usage error, a crash); its last error line says why
  line="FAIL: no verdict (exit $rc): $(grep -v '^\s*$' "$out/preflight.err" | tail -1)"
fi
reason="ncclbench preflight: $line"
case "$rc" in
  0) judged; exit 0 ;;
  6) judged
     if [[ "$drain_on" == DEGRADED ]]; then drain; exit 1; fi
     echo "$node: $reason" >&2; tell "$reason"; exit 0 ;;
  3|4|5) judged; drain; exit 1 ;;
  # a usage error (2) or a fault of the tool (1) says nothing about the node, and nothing was checked: said where an
  # admin sees it, then left or drained as NCCLBENCH_UNCHECKED says
  *) unchecked "preflight exit $rc: $line" ;;
esac
