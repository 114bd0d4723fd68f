#!/usr/bin/env bash
# How fast `ncclbench explain` reads, in three parts (a benchmark, not a test: nothing here runs in mvn test):
#   1. JMH LogReaderBench: lines/s of the reader on one thread over an in-memory mix of INFO lines;
#   2. LogFileThroughput: lines/s reading ONE file of a generated job (1 M lines), wall and the thread's CPU time;
#   3. explain over a whole generated 8192-rank job (1024 nodes x 8, 2,000 INFO lines per rank, ~16 M lines,
#      two socket nodes) with -Xmx1g and again with -Xmx256m: wall time, CPU time, peak RSS, exit code, verdict.
# The job's logs come from dev.ncclbench.nccllog.ScaleLogSet (test scope), written once to $LOGSET.
# Usage: scripts/bench/log-reader.sh [--no-jmh] [--layout rank|node] [extra JMH args]
set -euo pipefail
cd "$(dirname "$0")/../.."
jmh=1
layout=rank
while [ $# -gt 0 ]; do
  case "$1" in
    --no-jmh) jmh=0; shift ;;
    --layout) layout="$2"; shift 2 ;;
    *) break ;;
  esac
done
logset="${LOGSET:-/tmp/ncclbench-logset-8192-$layout}"
cp_file=target/bench-classpath.txt
mvn -q -B -o test-compile -Dncclbench.native.skip=true
if ! mvn -q -B -o dependency:build-classpath -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >/dev/null 2>&1; then
  # offline machines may lack the dependency plugin's own dependencies: take the few jars the bench needs
  m2="${MAVEN_REPO:-$HOME/.m2/repository}"
  jars=()
  for a in org/openjdk/jmh/jmh-core/1.37 net/sf/jopt-simple/jopt-simple org/apache/commons/commons-math3/3.6.1 \
           com/fasterxml/jackson/core/jackson-databind/2.21.3 com/fasterxml/jackson/core/jackson-core/2.21.3 \
           com/fasterxml/jackson/core/jackson-annotations info/picocli/picocli/4.7.7; do
    j=$(find "$m2/$a" -name '*.jar' ! -name '*sources*' 2>/dev/null | sort | tail -n 1)
    [ -n "$j" ] || { echo "log-reader.sh: no jar under $m2/$a" >&2; exit 3; }
    jars+=("$j")
  done
  (IFS=:; echo "${jars[*]}") > "$cp_file"
fi
cp="target/test-classes:target/classes:$(cat "$cp_file")"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$jmh" = 1 ]; then
  echo "== 1. JMH LogReaderBench (in-memory mix, one thread; score = lines/s)"
  java -cp "$cp" org.openjdk.jmh.Main LogReaderBench -f 1 -wi 2 -i 3 -t 1 "$@"
fi

if [ ! -f "$logset/.complete" ]; then
  echo "== generating the 8192-rank log set ($layout layout) in $logset"
  rm -rf "$logset"
  java -cp "$cp" dev.ncclbench.nccllog.ScaleLogSet --nodes 1024 --gpus 8 --lines 2000 --layout "$layout" \
    --socket-nodes 700,1001 --out "$logset"
  touch "$logset/.complete"
fi
one="$logset.one-file.log"
if [ ! -f "$one" ]; then
  # one file of ~1 M lines: the first nodes' logs, concatenated
  files=500
  [ "$layout" = node ] && files=62
  find "$logset" -name 'nccl.*.log' | sort > "$one.list" # not piped into head: pipefail would stop the script
  head -n "$files" "$one.list" | xargs cat > "$one"
  rm -f "$one.list"
fi
echo "== 2a. the JMH mix (200,000 lines in memory), one thread, by the thread's CPU time"
java -Xmx1g -cp "$cp" dev.ncclbench.bench.LogFileThroughput 40 mix
echo "== 2b. one file ($(wc -l < "$one") lines), one thread"
java -Xmx1g -cp "$cp" dev.ncclbench.bench.LogFileThroughput 8 "$one"

for heap in 1g 256m; do
  echo "== 3. explain $logset, -Xmx$heap"
  out=$(mktemp)
  set +e
  /usr/bin/time -f "wall %e s, user %U s, sys %S s, peak RSS %M KiB" java -Xmx$heap -cp "$cp" dev.ncclbench.cli.Main \
    explain "$logset" > "$out" 2> "$out.err"
  rc=$?
  set -e
  head -n 4 "$out"
  grep -o 'on [0-9]* of [0-9]* host(s) ([^)]*)' "$out" || true
  tail -n 1 "$out.err"
  echo "exit $rc"
  rm -f "$out" "$out.err"
done
