#!/usr/bin/env bash
# The one prepared check for a lent GPU machine (one H200, CUDA 13, PyTorch + nvidia-nccl-cu13 in its
# Python, no JDK, no compiler): the nccl backend side by side with nccl-tests on the same GPU, with the same
# flags, and what ncclAllReduce costs per call from Java and from C.
#
# What it expects, carried in (built on the developer machine by scripts/gpu-bundle.sh, which also says how
# to build nccl-tests there and checks that everything fits the device tool's 64 MiB):
#   target/gpu-bundle/{ncclbench.tar.gz,bench.jar,allreduce_percall,nccl-tests/all_reduce_perf}
# ncclbench.tar.gz is the bundle users get (scripts/package.sh: jlink'd runtime, jar, bin/ncclbench), unpacked here.
# libnccl.so.2 (250 MB) is not carried: the machine's pip package nvidia-nccl-cu13 is found in site-packages.
#
# Device tool call, from the repository root:
#   run(command="bash scripts/gpu-selftest.sh", carry=["target/gpu-bundle"], timeout_s=300)
#
# Steps, each under its own timeout, cut to what is left of SELFTEST_BUDGET (default 270 s; the whole run
# should take about 2 minutes, so a 300 s call leaves room for one rerun in a 15-minute lease), and, where
# the program has one, its own -T, so a hang is reported by the program and never eats the lease:
#   driver        nvidia-smi -L                                                     (3 when no driver)
#                 with the machine's glibc (ldd --version) next to what the carried binaries need
#   env, probe    what ncclbench finds, the NCCL version and bootstrap interface
#   nccl-tests    all_reduce_perf -b 8 -e 8G -f 2 -g 1 -T 60 -N 3 (3 cycles: the compare takes each side's best)
#   sweep         ncclbench sweep --backend nccl -b 8 -e 8G -f 2 -g 1 -T 60 -N 3
#   nccl-tests-G  the same with -G 1 (CUDA graph replay)
#   sweep-G       the same with -G 1
#   check         sweep -b 1G -e 8G -f 8 -c 1 -I 1: #wrong at 1 GB and 8 GB, per-iteration CUDA-event samples
#   preflight     preflight with no flags, as the Slurm prolog runs it: PASS wanted (exit 0)
#   versions      the plain sweep's result.json records nccl, its library, cuda_runtime, cuda_driver_api, driver,
#                 kernel, gpu_model and gpu_count as fields
#   sweep-again   the plain sweep once more (-N 1), then baseline (record the first), gate (the second against it),
#                 report (--html, --png of the first, packed in runs.tar.gz) and explain (of every run folder)
#   outputs       sweep --html -J --json, then report --png --svg of it, from the bundle's runtime
#   hang          sweep --rank 0 --world-size 2 -T 5 with rank 1 never started: must exit 5. This tests the
#                 rendezvous's -T (rank 0 waits for rank 1 in the store, before any NCCL call), not NCCL's: the
#                 drain abort, init deadline and launch watchdog need two ranks, and NCCL refuses two ranks on one GPU
#   jmh           NcclAllReduceBench (ncclAllReduce per call through JavaCPP)
#   c-percall     allreduce_percall (the same calls from C)
# Files under $OUT (the tool brings back at most 8):
#   summary.txt   one line per step: exit code, seconds, and the last lines of its output
#   compare.txt   per size: time and algbw of nccl-tests and ncclbench, their ratio, plain and -G, with a verdict:
#                 out of place >= 64 MiB: best of -N 3 algbw within 3%; in place on one rank: "host only" (NCCL does
#                 no GPU work for it) within +1 us; any other row whose nccl-tests time is < 50 us: within +1 us
#   nccl-tests.txt sweep.txt check.txt bench.txt   the outputs
#   runs.tar.gz   env, probe, every run folder (JSON results, per-rank NCCL logs)
# Exit code: 0 when every step did what it should, else the first failing step's code (3 here without a
# driver: each step then refuses with its own code, listed in summary.txt).
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
OUT="${OUT:-/tmp/ncclbench-selftest}"
mkdir -p "$OUT"
work="$(mktemp -d)"
mkdir -p "$work/runs"
bundle="$root/target/gpu-bundle"
summary="$OUT/summary.txt"
budget="${SELFTEST_BUDGET:-270}"
first_fail=0
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

[[ -f "$bundle/ncclbench.tar.gz" ]] || { note "FAIL no target/gpu-bundle/ncclbench.tar.gz: run scripts/gpu-bundle.sh and carry target/gpu-bundle"; exit 3; }
tar -xzf "$bundle/ncclbench.tar.gz" -C "$work" || { note "FAIL target/gpu-bundle/ncclbench.tar.gz does not unpack"; exit 3; }
app="$(echo "$work"/ncclbench-*/)"
app="${app%/}"
java="$app/runtime/bin/java"
jar="$app/lib/ncclbench.jar"

# NCCL and the CUDA runtime: the pip wheels of the machine's Python, unless NCCL_HOME says otherwise.
pylib() {  # pylib SUBDIR LIB -> the folder holding site-packages/nvidia/SUBDIR/lib/LIB
  for py in python3 python; do
    command -v "$py" >/dev/null || continue
    "$py" - "$1" "$2" 2>/dev/null <<'PY'
import glob, os, site, sys
dirs = site.getsitepackages() + [site.getusersitepackages()]
for s in dirs:
    for lib in glob.glob(os.path.join(s, "nvidia", sys.argv[1], "lib", sys.argv[2])):
        print(os.path.dirname(lib)); raise SystemExit
PY
    return
  done
}
if [[ -z "${NCCL_HOME:-}" ]]; then
  d="$(pylib nccl libnccl.so.2)"
  [[ -n "$d" ]] && export NCCL_HOME="$(dirname "$d")"
fi
[[ -z "${NCCL_HOME:-}" && -f "$root/deps/nccl/lib/libnccl.so.2" ]] && export NCCL_HOME="$root/deps/nccl"
libnccl="${NCCL_HOME:+$NCCL_HOME/lib/libnccl.so.2}"
libcudart=""
for sub in cu13 cuda_runtime; do
  d="$(pylib "$sub" libcudart.so.13)"
  [[ -n "$d" ]] && { libcudart="$d/libcudart.so.13"; break; }
done
[[ -n "$libcudart" ]] || libcudart="$(ldconfig -p 2>/dev/null | awk '/libcudart.so.13 / && !f {print $NF; f = 1}')"
# nccl-tests links libnccl.so.2 by soname: point the loader at the wheel's; GPU containers mount the
# driver (libcuda.so.1, nvidia-smi) under /usr/local/nvidia, which the loader may not search
export LD_LIBRARY_PATH="${NCCL_HOME:+$NCCL_HOME/lib:}${LD_LIBRARY_PATH:-}"
[[ -d /usr/local/nvidia/lib64 ]] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:/usr/local/nvidia/lib64"
[[ -d /usr/local/nvidia/bin ]] && export PATH="$PATH:/usr/local/nvidia/bin"
note "host $(hostname) NCCL_HOME=${NCCL_HOME:-unset} cudart=${libcudart:-not found} budget=${budget}s"

# step NAME LIMIT EXPECT OUTFILE -- command...   (EXPECT: the exit code that means the step did its job)
step() {
  local name="$1" limit="$2" expect="$3" file="$4"; shift 5
  local left=$((budget - SECONDS - 10))
  if (( left < 15 )); then
    note "$name SKIPPED: ${left}s left of the ${budget}s budget"
    (( first_fail == 0 )) && first_fail=5
    return
  fi
  (( limit > left )) && limit=$left
  local t0=$SECONDS
  local own="$work/step-$name.txt"
  echo "### $name: $*" >"$own"
  timeout --kill-after=10 "$limit" bash -c '"$@"' "$name" "$@" >>"$own" 2>&1
  local rc=$?
  cat "$own" >>"$file"
  local verdict=ok
  if [[ $rc == 124 || $rc == 137 ]]; then
    verdict="TIMEOUT after ${limit}s"
  elif [[ $rc != "$expect" ]]; then
    verdict="FAILED (wanted exit $expect)"
  fi
  note "$name rc=$rc $((SECONDS - t0))s $verdict"
  tail -n 3 "$own" | sed 's/^/    /' >>"$summary"
  if [[ $verdict != ok ]] && (( first_fail == 0 )); then
    first_fail=$rc
    (( first_fail == 0 )) && first_fail=1
  fi
}
# through the bundle's own launcher, as a user on the node runs it
nb() { NCCLBENCH_JAVA_OPTS="-Xmx16g -Dorg.bytedeco.javacpp.cachedir=$work/javacpp-cache" "$app/bin/ncclbench" "$@"; }
missing() { echo "$1"; return "$2"; }
export java jar work app
export -f nb missing

note "glibc here: $(ldd --version 2>&1 | head -n 1); carried binaries need: $(cat "$bundle/glibc-needs.txt" 2>/dev/null || echo 'unknown (no target/gpu-bundle/glibc-needs.txt)')"
step driver 20 0 "$work/env.txt" -- bash -c 'nvidia-smi -L || { echo "no NVIDIA driver here (nvidia-smi failed)"; exit 3; }'
driver_ok=0
[[ "$(grep -c '^driver rc=0' "$summary")" == 1 ]] && driver_ok=1
# the peers that are not ncclbench have no readiness check of their own: refuse them in one line without a driver
gpu() { if [[ $driver_ok == 1 ]]; then "$@"; else echo "refused: no NVIDIA driver on this machine (the driver step failed)"; return 3; fi; }
export driver_ok
export -f gpu
step env 60 0 "$work/env.txt" -- nb env
step probe 60 0 "$work/env.txt" -- nb probe

flags=(-b 8 -e 8G -f 2 -g 1 -T 60)
peer="$bundle/nccl-tests/all_reduce_perf"
if [[ -x "$peer" ]]; then
  step nccl-tests 90 0 "$OUT/nccl-tests.txt" -- gpu "$peer" "${flags[@]}" -N 3
else
  step nccl-tests 5 0 "$OUT/nccl-tests.txt" -- missing "no $peer: build nccl-tests and bundle it (scripts/gpu-bundle.sh's header)" 3
fi
step sweep 120 0 "$OUT/sweep.txt" -- nb sweep --backend nccl "${flags[@]}" -N 3 --out "$work/runs/plain" --no-progress
if [[ -x "$peer" ]]; then
  step nccl-tests-G 90 0 "$OUT/nccl-tests.txt" -- gpu "$peer" "${flags[@]}" -G 1
else
  step nccl-tests-G 5 0 "$OUT/nccl-tests.txt" -- missing "no $peer" 3
fi
step sweep-G 120 0 "$OUT/sweep.txt" -- nb sweep --backend nccl "${flags[@]}" -G 1 --out "$work/runs/graph" --no-progress
step check 90 0 "$OUT/check.txt" -- nb sweep --backend nccl -b 1G -e 8G -f 8 -g 1 -c 1 -n 5 -I 1 -T 60 \
  --out "$work/runs/check" --no-progress
# What a user on a GPU node runs after a sweep: preflight with no flags, a baseline of one plain sweep and the gate
# of another against it, the report, explain of the run folders, and the versions each run recorded as fields.
step preflight 90 0 "$OUT/check.txt" -- nb preflight --out "$work/runs/preflight"
step versions 10 0 "$OUT/check.txt" -- python3 -c '
import glob, json, sys
f = sorted(glob.glob(sys.argv[1] + "/*/result.json"))[0]
v = json.load(open(f))["versions"]
need = ["nccl", "nccl_library", "cuda_runtime", "cuda_driver_api", "driver", "kernel", "gpu_model", "gpu_count"]
print("versions of", f); [print("  %s = %s" % kv) for kv in sorted(v.items())]
missing = [k for k in need if k not in v]
print("missing:", ", ".join(missing) if missing else "none"); sys.exit(1 if missing else 0)' "$work/runs/plain"
step sweep-again 120 0 "$OUT/check.txt" -- nb sweep --backend nccl "${flags[@]}" --out "$work/runs/again" --no-progress
step baseline 30 0 "$OUT/check.txt" -- bash -c 'nb baseline record "$1"/*/result.json --name selftest --file "$2"' _ \
  "$work/runs/plain" "$work/selftest.baseline.json"
step gate 30 0 "$OUT/check.txt" -- bash -c 'nb gate --baseline "$1" "$2"/*/result.json' _ "$work/selftest.baseline.json" \
  "$work/runs/again"
mkdir -p "$work/runs/report"
step report 60 0 "$OUT/check.txt" -- bash -c 'nb report --html "$1/report.html" --png "$1/report.png" "$2"/*/result.json' \
  _ "$work/runs/report" "$work/runs/plain"
step explain 30 0 "$OUT/check.txt" -- nb explain "$work/runs"
# every output of a GPU run from the bundle's runtime (its java.desktop draws the charts: --html crashed without it)
step outputs 60 0 "$OUT/check.txt" -- bash -c 'mkdir -p "$1" && nb sweep --backend nccl -b 8 -e 64M -f 8 -g 1 -I 1 -T 60 --no-progress \
  --json "$1/out.json" -J "$1/nt.json" --html "$1/sweep.html" && nb report "$1/out.json" --png "$1/r.png" --svg "$1/r.svg" \
  && ls -l "$1"' outputs "$work/runs/outputs"
# rank 1 is never started: rank 0 must give up in the rendezvous after -T 5 with the hang code (the run folder is
# made after the rendezvous, so there is none; NCCL's own -T paths need two GPUs)
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 29517)"
step hang 40 5 "$OUT/check.txt" -- nb sweep --backend nccl -b 8 -e 1M -f 2 -g 1 -T 5 --rank 0 --world-size 2 \
  --rendezvous "127.0.0.1:$port" --out "$work/runs/hang" --no-progress
note "    hang: tested the rendezvous's -T only (NCCL refuses two ranks on one GPU)"

if [[ -f "$bundle/bench.jar" ]]; then
  step jmh 90 0 "$OUT/bench.txt" -- gpu "$java" -cp "$jar:$bundle/bench.jar" org.openjdk.jmh.Main NcclAllReduceBench \
    -f 1 -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "-Dorg.bytedeco.javacpp.cachedir=$work/javacpp-cache"
else
  step jmh 5 0 "$OUT/bench.txt" -- missing "no $bundle/bench.jar: run scripts/gpu-bundle.sh" 3
fi
if [[ -x "$bundle/allreduce_percall" ]]; then
  step c-percall 40 0 "$OUT/bench.txt" -- gpu "$bundle/allreduce_percall" "${libnccl:-libnccl.so.2}" "${libcudart:-libcudart.so.13}" 200000
else
  step c-percall 5 0 "$OUT/bench.txt" -- missing "no $bundle/allreduce_percall: run scripts/gpu-bundle.sh" 3
fi

# Per size: nccl-tests vs ncclbench, time and algbw, out-of-place and in-place, plain and -G.
python3 "$root/scripts/selftest-compare.py" "$OUT/nccl-tests.txt" "$OUT/sweep.txt" >"$OUT/compare.txt" 2>&1 \
  || note "compare: could not compare (see compare.txt)"
cp "$work/env.txt" "$work/runs/" 2>/dev/null
tar -C "$work" -czf "$OUT/runs.tar.gz" runs 2>/dev/null || note "no run folders to pack"
rm -rf "$work"
note "done in ${SECONDS}s, exit $first_fail"
exit "$first_fail"
