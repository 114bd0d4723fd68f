# Sourced by the fleet labs (fleet.sh, fleet-rails.sh), after they set root and prefix:
#   fleet_lab_down     kill what runs in the namespaces PREFIX-N and delete them
#   fleet_lab_java     java_cmd: FLEET_JAVA_CP (a class path, e.g. the test class path) when set, else NCCLBENCH_JAR,
#                      else target/ncclbench.jar (built with mvn package -DskipTests when missing)
fleet_lab_down() {
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${prefix}-[0-9]*$" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
}

fleet_lab_java() {
  if [[ -n "${FLEET_JAVA_CP:-}" ]]; then
    java_cmd=(java -cp "$FLEET_JAVA_CP" dev.ncclbench.cli.Main)
  else
    local jar="${NCCLBENCH_JAR:-$root/target/ncclbench.jar}"
    if [[ ! -f "$jar" ]]; then (cd "$root" && mvn -q -B -o package -DskipTests >&2); fi
    java_cmd=(java -jar "$jar")
  fi
}
