#!/usr/bin/env bash
# Builds, on this (developer) machine, everything scripts/gpu-selftest.sh needs on a GPU machine that has
# no JDK and no compiler, under target/ (ignored by git), and checks that it fits the device tool's 64 MiB:
#   target/gpu-bundle/ncclbench.tar.gz         the bundle users get, from scripts/package.sh (one builder): a jlink'd
#                                              runtime, the fat jar (probe JNI + kernels fatbin inside), bin/ncclbench;
#                                              carried packed, the self-test unpacks it
#   target/gpu-bundle/bench.jar  JMH and NcclAllReduceBench (ncclAllReduce per call through JavaCPP)
#   target/gpu-bundle/allreduce_percall        the same calls from C (native/bench/allreduce_percall.c)
#   target/gpu-bundle/nccl-tests/all_reduce_perf   nccl-tests v2.19.6, built for sm_90 against deps/nccl
#   target/gpu-bundle/glibc-needs.txt          the newest GLIBC_/GLIBCXX_ versions the carried binaries need
#
#   scripts/gpu-bundle.sh --nccl-tests-repo GIT_DIR   build all_reduce_perf from a fetched copy of the repository
#   scripts/gpu-bundle.sh NCCL_TESTS_BUILD_DIR        take an all_reduce_perf built elsewhere (the folder holding it)
#   scripts/gpu-bundle.sh --no-nccl-tests             the bundle without the peer; the self-test then says so
# Exit codes: 0 built and fits; 2 bad argument; 3 a tool is missing (jlink, mvn, gcc, nvcc, make); 4 the nccl-tests
# build failed; 6 over 64 MiB.
#
# nccl-tests' source is never committed here, nor a binary built from it. These machines have no network for
# `git clone`: the source comes from a copy of github.com/NVIDIA/nccl-tests already on disk, e.g. the bare git
# directory the session's `fetch` tool gives (/work/.mirror/NVIDIA+nccl-tests/repo), or any clone. With
# --nccl-tests-repo this script does, in a temporary folder it removes afterwards:
#   git -C GIT_DIR archive --prefix=nccl-tests/ v2.19.6 | tar -x -C TMP      (tag NCCL_TESTS_TAG, default v2.19.6)
#   mkdir -p TMP/ncclhome/lib
#   ln -sfn "$PWD/deps/nccl/include" TMP/ncclhome/include                     (deps/nccl: scripts/fetch-nccl.sh,
#   ln -sf "$PWD/deps/nccl/lib/libnccl.so.2" TMP/ncclhome/lib/libnccl.so.2     the nvidia-nccl-cu13 wheel's)
#   ln -sf libnccl.so.2 TMP/ncclhome/lib/libnccl.so
#   make -C TMP/nccl-tests/src -j$(nproc) MPI=0 CUDARTLIB=cudart_static NCCL_HOME=TMP/ncclhome CUDA_HOME=/usr/local/cuda \
#     NVCC_GENCODE=-gencode=arch=compute_90,code=sm_90 os.build ../build/all_reduce_perf
# (about 1 minute on 2 busy cores.) The CUDA runtime is linked statically, so the GPU machine needs only its driver;
# NCCL is the machine's own (libnccl.so.2 by soname, lazily bound: a 2.28 libnccl runs a binary built on 2.30 headers).
#
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
say() { echo "gpu-bundle: $*"; }
die() { local code="$1"; shift; echo "gpu-bundle: $*" >&2; exit "$code"; }
limit=$((64 * 1024 * 1024))

[[ $# -ge 1 && $# -le 2 ]] || die 2 "give --nccl-tests-repo GIT_DIR, the nccl-tests build folder (holding all_reduce_perf), or --no-nccl-tests"
peer=""
repo=""
case "$1" in
  --no-nccl-tests) [[ $# -eq 1 ]] || die 2 "--no-nccl-tests takes no argument" ;;
  --nccl-tests-repo)
    [[ $# -eq 2 ]] || die 2 "--nccl-tests-repo needs the git directory of a fetched copy of NVIDIA/nccl-tests"
    repo="$2"
    git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 || die 2 "$repo is not a git repository (a fetched copy of NVIDIA/nccl-tests)"
    ;;
  *)
    [[ $# -eq 1 ]] || die 2 "one build folder, or --nccl-tests-repo GIT_DIR"
    peer="$1"
    [[ -d "$peer" ]] || die 2 "$peer is not a folder (the nccl-tests build folder, see this script's header)"
    [[ -x "$peer/all_reduce_perf" ]] || die 2 "$peer has no executable all_reduce_perf (build it as this script's header says)"
    ;;
esac
if [[ -n "$repo" ]]; then
  tag="${NCCL_TESTS_TAG:-v2.19.6}"
  git -C "$repo" rev-parse -q --verify "$tag^{commit}" >/dev/null || die 2 "$repo has no tag $tag (NCCL_TESTS_TAG)"
  for tool in make nvcc tar; do
    command -v "$tool" >/dev/null || [[ $tool == nvcc && -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]] \
      || die 3 "$tool not found: building nccl-tests needs make and the CUDA toolkit (CUDA_HOME, default /usr/local/cuda)"
  done
  [[ -f deps/nccl/include/nccl.h && -e deps/nccl/lib/libnccl.so.2 ]] || die 3 "no deps/nccl: run scripts/fetch-nccl.sh first"
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/gpu-bundle-nccl-tests.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  git -C "$repo" archive --prefix=nccl-tests/ "$tag" | tar -x -C "$tmp" || die 4 "git archive $tag of $repo failed"
  mkdir -p "$tmp/ncclhome/lib"
  ln -sfn "$root/deps/nccl/include" "$tmp/ncclhome/include"
  ln -sf "$(readlink -f "$root/deps/nccl/lib/libnccl.so.2")" "$tmp/ncclhome/lib/libnccl.so.2"
  ln -sf libnccl.so.2 "$tmp/ncclhome/lib/libnccl.so"
  say "building nccl-tests $tag all_reduce_perf for sm_90 against deps/nccl (log: $tmp/build.log while it runs)"
  t0=$SECONDS
  make -C "$tmp/nccl-tests/src" -j"$(nproc)" MPI=0 CUDARTLIB=cudart_static NCCL_HOME="$tmp/ncclhome" \
    CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" NVCC_GENCODE=-gencode=arch=compute_90,code=sm_90 \
    os.build ../build/all_reduce_perf >"$tmp/build.log" 2>&1 || { tail -n 20 "$tmp/build.log" >&2; die 4 "the nccl-tests build failed"; }
  say "nccl-tests built in $((SECONDS - t0)) s"
  peer="$tmp/nccl-tests/build"
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

b=target/gpu-bundle
rm -rf "$b"
mkdir -p "$b"
# the jar just built is fresh, so package.sh takes it as it is and only adds the runtime (modules from jdeps)
tarball="$(scripts/package.sh | tail -n 1)" || die 3 "scripts/package.sh failed"
cp "$tarball" "$b/ncclbench.tar.gz"
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

# what the carried binaries need of the GPU machine's C and C++ libraries: the self-test prints it beside ldd --version
if command -v objdump >/dev/null; then
  rt="$(mktemp -d)"
  tar -xzf "$b/ncclbench.tar.gz" -C "$rt" --wildcards '*/runtime/bin/java' '*/runtime/lib/server/libjvm.so'
  bins=("$rt"/*/runtime/bin/java "$rt"/*/runtime/lib/server/libjvm.so "$b/allreduce_percall")
  [[ -x "$b/nccl-tests/all_reduce_perf" ]] && bins+=("$b/nccl-tests/all_reduce_perf")
  objdump -T "${bins[@]}" 2>/dev/null | grep -o 'GLIBC\(XX\)\?_[0-9.]*' | sort -u -V \
    | awk -F_ '{v[$1] = $0} END {printf "%s %s\n", v["GLIBC"], v["GLIBCXX"]}' >"$b/glibc-needs.txt"
  rm -rf "$rt"
  say "carried binaries need $(cat "$b/glibc-needs.txt")"
fi

tree=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -n 1 | cut -f1)
carried=$(du -cb "$b" | tail -n 1 | cut -f1)
total=$((tree + carried))
for p in "$b"/*; do du -sh "$p"; done | sed 's/^/gpu-bundle:   /'
say "working tree $((tree / 1024)) KiB + carried $((carried / 1024)) KiB = $(awk "BEGIN{printf \"%.1f\", $total / 1048576}") MiB of 64 MiB"
[[ $total -le $limit ]] || die 6 "over the device tool's 64 MiB: drop CUDA JNI from the shade filters (the modules are what jdeps finds)"
[[ -n "$peer" ]] || say "no nccl-tests in the bundle: the self-test will skip the comparison and say why"
say "ready: run(command=\"bash scripts/gpu-selftest.sh\", carry=[\"target/gpu-bundle\"], timeout_s=300)"
