#!/usr/bin/env bash
# Builds the native part; called by Maven (process-classes, see pom.xml) and by scripts/ncclbench.
#   native/build.sh BUILD_DIR CLASSES_DIR JAVA CLASSPATH
# 1. CMake: native/ -> BUILD_DIR (lib/libncclprobe.a, lib/libncclbenchreduce.a, bin/ncclprobe-cli,
#    kernels/*.fatbin|ptx with nvcc)
# 2. JavaCPP's Builder: the JNI for dev.ncclbench.internal.jni.NcclProbeNative and HostReduceNative, compiled
#    with g++ and linked with their static libraries, written into CLASSES_DIR/dev/ncclbench/internal/jni/
#    linux-x86_64/ so that they end up in the jar and JavaCPP's Loader finds them.
# Without a C compiler it prints what to install and exits 0: `mvn test` still passes, probe tests skip.
# NCCLBENCH_SKIP_NATIVE=1 skips everything; NCCLBENCH_SKIP_KERNELS=1 skips nvcc only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:?build dir}"
classes="${2:?classes dir}"
java="${3:?java}"
cp="${4:?classpath}"
say() { echo "[ncclbench native] $*"; }

if [[ "${NCCLBENCH_SKIP_NATIVE:-0}" == 1 ]]; then
  say "SKIPPED (NCCLBENCH_SKIP_NATIVE=1): no probe library, no kernels"
  exit 0
fi
cc="$(command -v "${CC:-gcc}" || command -v cc || true)"
cxx="$(command -v "${CXX:-g++}" || command -v c++ || true)"
if [[ -z "$cc" || -z "$cxx" ]]; then
  say "SKIPPED: no C/C++ compiler found (need gcc and g++). Install them: apt-get install build-essential cmake"
  say "  (or dnf install gcc gcc-c++ cmake). Without them the NCCL probe is unavailable and its tests skip."
  exit 0
fi
mkdir -p "$build"
if command -v cmake >/dev/null 2>&1; then
  extra=()
  [[ "${NCCLBENCH_SKIP_KERNELS:-0}" == 1 ]] && extra+=(-DNCCLBENCH_SKIP_KERNELS=ON)
  [[ -n "${NCCLBENCH_CUDA_ARCHS:-}" ]] && extra+=("-DNCCLBENCH_CUDA_ARCHS=${NCCLBENCH_CUDA_ARCHS}")
  cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER="$cc" "${extra[@]}" >"$build/cmake-configure.log" 2>&1 \
    || { cat "$build/cmake-configure.log"; say "cmake configure failed"; exit 1; }
  grep '\[ncclbench native\]' "$build/cmake-configure.log" | sed 's/^-- //' || true
  cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >"$build/cmake-build.log" 2>&1 \
    || { cat "$build/cmake-build.log"; say "native build failed"; exit 1; }
else
  # No cmake: the probe is one C file; the kernels need cmake's arch handling and are skipped.
  say "cmake not found: building the probe with $cc directly; CUDA kernels SKIPPED (apt-get install cmake)"
  mkdir -p "$build/lib" "$build/bin"
  "$cc" -std=c99 -O2 -fPIC -Wall -c "$here/probe/ncclprobe.c" -o "$build/lib/ncclprobe.o"
  ar rcs "$build/lib/libncclprobe.a" "$build/lib/ncclprobe.o"
  "$cc" -std=c99 -O2 -I"$here/probe" "$here/probe/ncclprobe_cli.c" "$build/lib/libncclprobe.a" -ldl -o "$build/bin/ncclprobe-cli"
  "$cc" -std=c99 -O3 -fPIC -Wall -c "$here/reduce/hostreduce.c" -o "$build/lib/hostreduce.o"
  ar rcs "$build/lib/libncclbenchreduce.a" "$build/lib/hostreduce.o"
fi

# JNI through JavaCPP. The Builder compiles into a temporary folder and we copy the one library, so a
# failed build never leaves a half-written file in the classes folder.
jnitmp="$build/jni"
rm -rf "$jnitmp"
mkdir -p "$jnitmp"
"$java" -cp "$cp" org.bytedeco.javacpp.tools.Builder \
  -classpath "$classes" -d "$jnitmp" -nodelete \
  "-Dplatform.compiler=$cxx" \
  "-Dplatform.includepath=$here/probe:$here/reduce" \
  "-Dplatform.linkpath=$build/lib" \
  dev.ncclbench.internal.jni.NcclProbeNative dev.ncclbench.internal.jni.HostReduceNative >"$build/javacpp-builder.log" 2>&1 \
  || { cat "$build/javacpp-builder.log"; say "JavaCPP Builder failed"; exit 1; }
dest="$classes/dev/ncclbench/internal/jni/linux-x86_64"
mkdir -p "$dest"
for name in libjniNcclProbe.so libjniHostReduce.so; do
  lib="$(find "$jnitmp" -name "$name" | head -n 1)"
  [[ -n "$lib" ]] || { cat "$build/javacpp-builder.log"; say "JavaCPP Builder produced no $name"; exit 1; }
  cp "$lib" "$dest/$name"
done
say "probe: $dest/libjniNcclProbe.so"
say "reductions: $dest/libjniHostReduce.so"
if [[ -f "$build/kernels/ncclbench_kernels.fatbin" ]]; then
  # Also into the jar, so the fat jar carries the kernels to a GPU machine.
  kdest="$classes/dev/ncclbench/native"
  mkdir -p "$kdest"
  cp "$build/kernels/ncclbench_kernels.fatbin" "$build/kernels/ncclbench_kernels.ptx" "$kdest/"
  say "kernels: $build/kernels/ncclbench_kernels.fatbin"
fi
