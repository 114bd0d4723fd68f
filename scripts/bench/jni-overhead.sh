#!/usr/bin/env bash
# ns per JNI call on the launch path, via JMH (java/test/dev/ncclbench/bench/ProbeJniBench.java).
# Needs: mvn package done (probe library built) and a real libnccl.so.2 (scripts/fetch-nccl.sh or NCCL_HOME).
#   scripts/bench/jni-overhead.sh [extra JMH args, e.g. -f 1 -wi 2 -i 3]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
lib="${NCCL_HOME:+$NCCL_HOME/lib/libnccl.so.2}"
[[ -n "$lib" && -f "$lib" ]] || lib="$root/deps/nccl/lib/libnccl.so.2"
[[ -f "$lib" ]] || { echo "jni-overhead: no libnccl.so.2; run scripts/fetch-nccl.sh" >&2; exit 3; }
mvn -q -B -o test-compile
# Class path: our classes, the javacpp jar, and JMH with its two dependencies, from the local Maven repository.
m2="${MAVEN_REPO:-$HOME/.m2/repository}"
jar_of() { find "$m2/$1" -name "$2" | sort | tail -n 1; }
cp="$root/target/test-classes:$root/target/classes"
cp="$cp:$(jar_of org/bytedeco/javacpp 'javacpp-1.5.13.jar')"
cp="$cp:$(jar_of org/openjdk/jmh/jmh-core 'jmh-core-1.37.jar')"
cp="$cp:$(jar_of net/sf/jopt-simple 'jopt-simple-*.jar')"
cp="$cp:$(jar_of org/apache/commons/commons-math3 'commons-math3-*.jar')"
exec java -cp "$cp" -Dorg.bytedeco.javacpp.cachedir="$root/target/javacpp-cache" -Dncclbench.bench.nccl="$lib" \
  org.openjdk.jmh.Main ProbeJniBench -jvmArgsAppend "-Dncclbench.bench.nccl=$lib -Dorg.bytedeco.javacpp.cachedir=$root/target/javacpp-cache" "$@"
