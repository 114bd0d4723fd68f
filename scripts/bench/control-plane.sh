#!/usr/bin/env bash
# The control plane at scale (issue 25): simulated ranks in one JVM speaking the real protocol to the real rendezvous
# store over loopback, no data plane, as processes of 8 ranks on one connection each (a node of 8 GPUs). Two tables:
# "processes as threads" (a thread a process, speaking for its 8 ranks: what a job of nodes costs the store) and
# "ranks as threads" (a thread a rank, the real client's local ranks meeting on their process's connection; on a
# few cores this one is bounded by waking N threads, not by the store). Prints rendezvous time, per-size control
# time, the store thread's CPU a size, and the bytes through the store a size (counted by the store), then fits the
# growth with N.
# Usage: scripts/bench/control-plane.sh [RANKS...]   (default: 64 512 2048 8192)
#   -Dsizes=N -Dwarmup=N -Diters=N -DperProcess=N -Ddrivers=N -Dmode=process|rank|both -DprintSizes=true through
#   CONTROL_PLANE_OPTS (default 20 sizes measured after 40 warm-up sizes, 20-iteration results: 176 B a rank; 8 ranks a
#   process; a driving thread a core; both; every size's time not printed)
# 8192 ranks hold 16384 loopback sockets (both ends in this JVM) and 8192 threads: the script raises the open-file
# limit to 20000 where the hard limit allows, and says so where it does not.
set -euo pipefail
cd "$(dirname "$0")/../.."
need=20000
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  if ! ulimit -n "$need" 2>/dev/null; then
    echo "control-plane.sh: open files limited to $(ulimit -n) (hard $(ulimit -Hn)); 8192 ranks need about $need" >&2
  fi
fi
mvn -q -B -o test-compile -Dncclbench.native.skip=true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(64 512 2048 8192)
# 8192 threads: small stacks, and a heap for 8192 answers of the rank list
exec java -Xss256k -Xmx2g ${CONTROL_PLANE_OPTS:-} -cp target/test-classes:target/classes \
  dev.ncclbench.rendezvous.ControlPlaneScale "${ranks[@]}"
