#!/usr/bin/env bash
# The one prepared check for a lent GPU machine (one H200, CUDA 13, PyTorch + nvidia-nccl-cu13 in its
# Python, no JDK). Runs the nccl backend for real and brings back tables, JSON and NCCL logs.
#
# What it expects, carried in with the working tree (64 MiB in all; jar + runtime are about 45 MiB):
#   target/jre             a jlink'd Java runtime, built here by:
#                            jlink --add-modules java.base,java.logging,jdk.unsupported,java.management,java.sql \
#                              --strip-debug --no-header-files --no-man-pages --compress=2 --output target/jre
#   target/ncclbench.jar   the fat jar from `mvn -B -o package -DskipTests` (probe JNI + kernels fatbin inside;
#                          the shade filters drop the CUDA libraries' JNI we do not use)
# libnccl.so.2 (250 MB) is NOT carried: the machine's pip package nvidia-nccl-cu13 is found in site-packages.
#
# Device tool call (from the repository root on the developer machine):
#   run(command="bash scripts/gpu-selftest.sh", carry=["target/jre", "target/ncclbench.jar"], timeout_s=540)
#
# Writes at most 8 files directly under $OUT (the tool's limit), none deeper:
#   summary.txt       one line per step with its exit code and seconds
#   env.txt env.json  `ncclbench env` (what was found where)
#   probe.txt         `ncclbench probe` (NCCL version, bootstrap interface)
#   sweep.txt         sweep --backend nccl -g 1, 8 B .. 1 GB, -c 1 (checked), the nccl-tests table
#   sweep-graph.txt   the same with -G 1 (CUDA graph capture and replay), 8 B .. 256 MB
#   runs.tar.gz       both runs' folders: JSON results and the per-rank NCCL logs
# Each step has its own timeout, so one hang cannot take the whole lease; the script always exits 0 after
# writing summary.txt, whose lines say what failed.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
OUT="${OUT:-/tmp/ncclbench-selftest}"
mkdir -p "$OUT"
work="$(mktemp -d)"
java="$root/target/jre/bin/java"
jar="$root/target/ncclbench.jar"
summary="$OUT/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

[[ -x "$java" ]] || { note "FAIL no target/jre/bin/java: carry target/jre (see this script's header)"; exit 0; }
[[ -f "$jar" ]] || { note "FAIL no target/ncclbench.jar: carry it (mvn package)"; exit 0; }

# NCCL: the pip wheel of the machine's Python, unless NCCL_HOME says otherwise.
if [[ -z "${NCCL_HOME:-}" ]]; then
  for py in python3 python; do
    d="$("$py" - 2>/dev/null <<'PY'
import glob, site, os
for s in site.getsitepackages() + [site.getusersitepackages()]:
    for lib in glob.glob(os.path.join(s, "nvidia", "nccl", "lib", "libnccl.so.2")):
        print(os.path.dirname(os.path.dirname(lib))); raise SystemExit
PY
)"
    if [[ -n "$d" ]]; then export NCCL_HOME="$d"; break; fi
  done
fi
note "host $(hostname) NCCL_HOME=${NCCL_HOME:-unset} $(nvidia-smi -L 2>/dev/null | head -n 1)"

jvm=(-Xmx8g -Dorg.bytedeco.javacpp.cachedir="$work/javacpp-cache" -jar "$jar")
step() {  # step NAME TIMEOUT OUTFILE -- ncclbench args...
  local name="$1" limit="$2" file="$3"; shift 4
  local t0=$SECONDS
  timeout --kill-after=10 "$limit" "$java" "${jvm[@]}" "$@" >"$file" 2>&1
  local rc=$?
  note "$name rc=$rc ${SECONDS}s-total $((SECONDS - t0))s $( [[ $rc == 124 || $rc == 137 ]] && echo TIMEOUT)"
  tail -n 3 "$file" | sed 's/^/    /' >>"$summary"
}

step env 60 "$OUT/env.txt" -- env
step env-json 60 "$OUT/env.json" -- env --json
step probe 60 "$OUT/probe.txt" -- probe
step sweep 240 "$OUT/sweep.txt" -- sweep --backend nccl -g 1 -b 8 -e 1G -f 2 -c 1 -n 20 -w 5 \
  --out "$work/runs/plain" --no-progress
step sweep-graph 150 "$OUT/sweep-graph.txt" -- sweep --backend nccl -g 1 -b 8 -e 256M -f 2 -c 1 -n 20 -w 5 -G 1 \
  --out "$work/runs/graph" --no-progress
tar -C "$work" -czf "$OUT/runs.tar.gz" runs 2>/dev/null || note "no run folders to pack"
rm -rf "$work"
note "done in ${SECONDS}s"
exit 0
