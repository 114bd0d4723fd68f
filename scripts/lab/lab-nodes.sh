# Sourced by the two-node labs (nic-misselection.sh, preflight.sh), after they set root, prefix and keep:
#   lab_nodes_up NAME   a work folder /tmp/ncclbench-NAME.XXXXXX in $work; on exit the namespaces go down and
#                       --keep DIR gets a copy of the work folder; the jar is built when NCCLBENCH_CMD is unset;
#                       then scripts/lab/netns-nodes.sh brings PREFIX0 and PREFIX1 up.
lab_nodes_cleanup() {
  bash "$root/scripts/lab/netns-nodes.sh" down "$prefix"
  if [[ -n "$keep" ]]; then mkdir -p "$keep" && cp -r "$work"/. "$keep"/; fi
  rm -rf "$work"
}

lab_nodes_up() {
  work="$(mktemp -d "/tmp/ncclbench-$1.XXXXXX")"
  trap lab_nodes_cleanup EXIT
  trap 'exit 130' INT TERM
  if [[ -z "${NCCLBENCH_CMD:-}" ]]; then
    (cd "$root" && mvn -q -B -o package -DskipTests >"$work/build.log" 2>&1) || { cat "$work/build.log" >&2; exit 1; }
  fi
  bash "$root/scripts/lab/netns-nodes.sh" up "$prefix"
}
