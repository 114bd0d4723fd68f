# Sourced by the sbatch scripts, with $self the submitted script (see slurm_self there): finds the bundle, or the
# checkout and its jar.   sets: ncclbench (the launcher), NCCLBENCH_JAR (exported, so that no process of the job builds)
slurm_find_jar() {
  local root
  root="$(cd "$(dirname "$self")/../.." && pwd)"
  if [[ -z "${NCCLBENCH_JAR:-}" && -x "$root/bin/ncclbench" ]]; then
    # an unpacked bundle (scripts/package.sh): its launcher brings its own runtime and jar
    ncclbench="$root/bin/ncclbench"
    return
  fi
  ncclbench="$root/scripts/ncclbench"
  jar="${NCCLBENCH_JAR:-$root/target/ncclbench.jar}"
  if [[ ! -f "$jar" ]]; then
    echo "ncclbench: no jar at $jar: build it once before submitting (mvn package -DskipTests) or set NCCLBENCH_JAR" >&2
    exit 3
  fi
  export NCCLBENCH_JAR="$jar"
}
