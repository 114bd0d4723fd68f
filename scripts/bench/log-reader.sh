#!/usr/bin/env bash
# Lines per second of the NCCL log reader (JMH, one thread, one fork). The issue asks for >= 1 million
# lines/s on one core. Usage: scripts/bench/log-reader.sh [extra JMH args]
set -euo pipefail
cd "$(dirname "$0")/../.."
cp_file=target/bench-classpath.txt
mvn -q -B -o test-compile
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
java -cp "target/test-classes:target/classes:$(cat "$cp_file")" org.openjdk.jmh.Main LogReaderBench \
  -f 1 -wi 2 -i 3 -t 1 "$@"
