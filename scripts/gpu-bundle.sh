#!/usr/bin/env bash
# Builds, on this (developer) machine, everything scripts/gpu-selftest.sh needs on a GPU machine that has
# no JDK and no compiler, under target/ (ignored by git), and checks that it fits the device tool's 64 MiB:
#   target/jre                   a jlink'd Java runtime
#   target/ncclbench.jar         the fat jar (probe JNI + kernels fatbin inside)
#   target/gpu-bundle/bench.jar  JMH and NcclAllReduceBench (ncclAllReduce per call through JavaCPP)
#   target/gpu-bundle/allreduce_percall        the same calls from C (native/bench/allreduce_percall.c)
#   target/gpu-bundle/nccl-tests/all_reduce_perf   copied from the prebuilt nccl-tests given as argument
#
#   scripts/gpu-bundle.sh NCCL_TESTS_BUILD_DIR     (the folder holding all_reduce_perf)
#   scripts/gpu-bundle.sh --no-nccl-tests          (the bundle without the peer; the self-test then says so)
# Exit codes: 0 built and fits; 2 bad argument; 3 a tool is missing (jlink, mvn, gcc); 6 over 64 MiB.
#
# nccl-tests is NOT built by this script or by anything committed here: the project never commits fetched
# code, a binary built from it, or a script that would build it. Build it yourself from the public source,
# v2.19.6, for sm_90 (H100/H200) against the NCCL headers of the nvidia-nccl-cu13 wheel (deps/nccl, from
# scripts/fetch-nccl.sh), with the CUDA runtime linked statically so the GPU machine needs only its driver:
#   git clone --branch v2.19.6 --depth 1 https://github.com/NVIDIA/nccl-tests /tmp/nccl-tests
#   mkdir -p /tmp/ncclhome/lib
#   ln -sfn "$PWD/deps/nccl/include" /tmp/ncclhome/include
#   ln -sf "$PWD/deps/nccl/lib/libnccl.so.2" /tmp/ncclhome/lib/libnccl.so.2
#   ln -sf libnccl.so.2 /tmp/ncclhome/lib/libnccl.so
#   make -C /tmp/nccl-tests/src MPI=0 CUDARTLIB=cudart_static NCCL_HOME=/tmp/ncclhome CUDA_HOME=/usr/local/cuda \
#     NVCC_GENCODE=-gencode=arch=compute_90,code=sm_90 os.build ../build/all_reduce_perf
#   scripts/gpu-bundle.sh /tmp/nccl-tests/build
# (about 2 minutes on 16 cores; all_reduce_perf alone is what the self-test compares against.)
#
# Then, from the repository root, the device tool call (the command is scripts/gpu-selftest.sh's header):
#   run(command="bash scripts/gpu-selftest.sh", carry=["target/jre","target/ncclbench.jar","target/gpu-bundle"], timeout_s=300)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
say() { echo "gpu-bundle: $*"; }
die() { local code="$1"; shift; echo "gpu-bundle: $*" >&2; exit "$code"; }
limit=$((64 * 1024 * 1024))

[[ $# -eq 1 ]] || die 2 "give the prebuilt nccl-tests build folder (holding all_reduce_perf), or --no-nccl-tests"
peer=""
if [[ "$1" != "--no-nccl-tests" ]]; then
  peer="$1"
  [[ -d "$peer" ]] || die 2 "$peer is not a folder (the nccl-tests build folder, see this script's header)"
  [[ -x "$peer/all_reduce_perf" ]] || die 2 "$peer has no executable all_reduce_perf (build it as this script's header says)"
fi
for tool in jlink mvn gcc; do
  command -v "$tool" >/dev/null || die 3 "$tool not found (apt-get install openjdk-17-jdk-headless maven gcc)"
done

# always rebuilt: a jar left from an older checkout would be measured instead of this one
say "building the fat jar (mvn -B -o package -DskipTests)"
mvn -B -o -q package -DskipTests >/dev/null || die 3 "mvn package failed (run it without -q to see why)"
listing="$(unzip -l target/ncclbench.jar)"
[[ "$listing" == *dev/ncclbench/native/ncclbench_kernels.fatbin* ]] \
  || die 3 "target/ncclbench.jar has no kernels fatbin (built without nvcc): the GPU run would fill and check 8 GB through the host; install the CUDA toolkit (nvcc) and rebuild (mvn -B -o package)"

if [[ ! -x target/jre/bin/java ]]; then
  say "jlink: target/jre"
  rm -rf target/jre
  jlink --add-modules java.base,java.logging,jdk.unsupported,java.management,jdk.management,java.sql \
    --strip-debug --no-header-files --no-man-pages --compress=2 --output target/jre || die 3 "jlink failed"
fi

b=target/gpu-bundle
rm -rf "$b"
mkdir -p "$b"
gcc -std=c99 -O2 -Wall -Wextra -o "$b/allreduce_percall" native/bench/allreduce_percall.c -ldl || die 3 "gcc failed"

# The JMH benchmark: its classes and JMH's generated ones from target/test-classes, with jmh-core and
# jopt-simple; the fat jar supplies the rest of the class path on the GPU machine.
mvn -B -o -q test-compile -Dncclbench.native.skip=true || die 3 "mvn test-compile failed"
m2="${MAVEN_REPO:-$HOME/.m2/repository}"
jar_of() { find "$m2/$1" -name "$2" | sort | tail -n 1; }
stage="$(mktemp -d)"
(cd target/test-classes && cp --parents -r META-INF/BenchmarkList META-INF/CompilerHints dev/ncclbench/backend/nccl/NcclAllReduceBench*.class \
  dev/ncclbench/backend/nccl/jmh_generated "$stage"/) || die 3 "no compiled NcclAllReduceBench in target/test-classes"
for j in "$(jar_of org/openjdk/jmh/jmh-core 'jmh-core-1.37.jar')" "$(jar_of net/sf/jopt-simple 'jopt-simple-*.jar')"; do
  [[ -f "$j" ]] || die 3 "JMH's jars are not in $m2 (mvn -B dependency:resolve once with a network)"
  (cd "$stage" && unzip -qo "$j" -x 'META-INF/MANIFEST.MF')
done
# only our benchmark in the list: the others live in classes this jar does not carry
grep 'NcclAllReduceBench' target/test-classes/META-INF/BenchmarkList >"$stage/META-INF/BenchmarkList"
(cd "$stage" && jar cf "$root/$b/bench.jar" .) || die 3 "jar failed"
rm -rf "$stage"

if [[ -n "$peer" ]]; then
  mkdir -p "$b/nccl-tests"
  cp "$peer/all_reduce_perf" "$b/nccl-tests/"
  strip "$b/nccl-tests/all_reduce_perf" 2>/dev/null || true
fi

tree=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -n 1 | cut -f1)
carried=$(du -cb target/jre target/ncclbench.jar "$b" | tail -n 1 | cut -f1)
total=$((tree + carried))
for p in target/jre target/ncclbench.jar "$b"/*; do du -sh "$p"; done | sed 's/^/gpu-bundle:   /'
say "working tree $((tree / 1024)) KiB + carried $((carried / 1024)) KiB = $(awk "BEGIN{printf \"%.1f\", $total / 1048576}") MiB of 64 MiB"
[[ $total -le $limit ]] || die 6 "over the device tool's 64 MiB: drop modules from jlink or CUDA JNI from the shade filters"
[[ -n "$peer" ]] || say "no nccl-tests in the bundle: the self-test will skip the comparison and say why"
say "ready: run(command=\"bash scripts/gpu-selftest.sh\", carry=[\"target/jre\",\"target/ncclbench.jar\",\"target/gpu-bundle\"], timeout_s=300)"
