# Sourced by the sbatch scripts, with $self the submitted script (see slurm_self there): finds the bundle, or the
# checkout and its jar, and makes the job's secret.
#   sets: ncclbench (the launcher), NCCLBENCH_JAR (exported, so that no process of the job builds),
#         job_secret (not exported: the scripts hand it to their srun step alone, NCCLBENCH_TOKEN=... srun)
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

# The job's rendezvous secret (docs/security.md): NCCLBENCH_TOKEN when the submitter gave one, else 64 random hex
# digits made here, in the job, so that it is in no submission environment, no command line and no file. srun
# carries it to each node in its launch request (encrypted only with Slurm's TLS, TLSType=tls/s2n). Empty when
# NCCLBENCH_TOKEN_FILE names the secret instead (the step inherits that: only the path travels).
slurm_job_secret() {
  job_secret="${NCCLBENCH_TOKEN:-}"
  if [[ -z "$job_secret" && -z "${NCCLBENCH_TOKEN_FILE:-}" ]]; then
    job_secret="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
  fi
}

# Runs "$@" (srun ...) with the job's secret in its environment alone.
with_job_secret() {
  if [[ -n "$job_secret" ]]; then
    NCCLBENCH_TOKEN="$job_secret" "$@"
  else
    "$@"
  fi
}
