# Sourced by the sbatch scripts, with $self the submitted script (see slurm_self there): finds the checkout and
# the jar.   sets: ncclbench (the launcher), NCCLBENCH_JAR (exported, so that no process of the job builds)
slurm_find_jar() {
  local root
  root="$(cd "$(dirname "$self")/../.." && pwd)"
  ncclbench="$root/scripts/ncclbench"
  jar="${NCCLBENCH_JAR:-$root/target/ncclbench.jar}"
  if [[ ! -f "$jar" ]]; then
    echo "ncclbench: no jar at $jar: build it once before submitting (mvn package -DskipTests) or set NCCLBENCH_JAR" >&2
    exit 3
  fi
  export NCCLBENCH_JAR="$jar"
}
