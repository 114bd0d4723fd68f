package dev.ncclbench.env;

/**
 * Every environment variable ncclbench reads for itself, by name: {@link Host#get} takes one of these, so a setting is
 * looked up under a name the compiler knows and this list is the whole of what the process's environment can change.
 * Each is parsed by the one class named beside it. What a run records (NCCL_, CUDA_ and the launchers' variables) and
 * what a child process inherits is the whole environment ({@link Host#variables}), not this list.
 */
public enum Variable {
    // NCCL's own settings that ncclbench also reads
    /** The interfaces NCCL binds: the socket backend binds the same (netif), the readiness remedy and env name it. */
    NCCL_SOCKET_IFNAME,
    /** AF_INET or AF_INET6: the socket backend picks its interfaces as NCCL would (backend/socket/SocketBackend). */
    NCCL_SOCKET_FAMILY,
    /** NCCL's rendezvous address: its interface is the one NCCL binds (backend/socket/SocketBackend). */
    NCCL_COMM_ID,
    /** The user's NCCL log: set, the nccl backend leaves NCCL's logging alone (backend/nccl/NcclRuntime). */
    NCCL_DEBUG,
    /** Where the user's NCCL log goes, when NCCL_DEBUG is theirs (backend/nccl/NcclRuntime). */
    NCCL_DEBUG_FILE,

    // where the native libraries are (NativeLibraries, in this order of places)
    NCCL_HOME,
    LD_LIBRARY_PATH,
    CUDA_HOME,
    CUDA_PATH,
    /** The python asked for its site-packages (pip's nvidia-nccl-cu13); python3 when unset. */
    NCCLBENCH_PYTHON,
    VIRTUAL_ENV,
    CONDA_PREFIX,

    // nccl-tests' knobs (src/common.cu, alltoallv.cu): the sweep reads them as nccl-tests does
    /** A colour per process, as nccl-tests' (spec/NcclTestsSplit); the mask wins. */
    NCCL_TESTS_SPLIT_MASK,
    NCCL_TESTS_SPLIT,
    /** alltoallv's pattern, 0 uniform to 1 distance-weighted (collective/AllToAllV.spreadOf). */
    NCCL_TESTS_ALLTOALLV_SPREAD,
    /** alltoallv's traffic-matrix mode and summary, not implemented: refused when set (sweep/Skips). */
    NCCL_TESTS_ALLTOALLV_MATRIX_FILE,
    NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY,

    // ncclbench's own
    /** Set: an internal error prints its stack trace (cli/Main, preflight). */
    NCCLBENCH_DEBUG,
    /** The job's shared secret for the rendezvous, or a file holding it (rendezvous/JobSecret). */
    NCCLBENCH_TOKEN,
    NCCLBENCH_TOKEN_FILE,

    // the terminal
    /** dumb: no progress bar, no colour. */
    TERM,
    /** Set: no colour (doctor). */
    NO_COLOR,

    // launchers: rank, size, local rank and rank 0's address (launch/LaunchDetector, SlurmLaunch, HostName)
    RANK,
    WORLD_SIZE,
    LOCAL_RANK,
    LOCAL_WORLD_SIZE,
    MASTER_ADDR,
    MASTER_PORT,
    TORCHELASTIC_RUN_ID,
    OMPI_COMM_WORLD_RANK,
    OMPI_COMM_WORLD_SIZE,
    OMPI_COMM_WORLD_LOCAL_RANK,
    OMPI_COMM_WORLD_LOCAL_SIZE,
    OMPI_MCA_ess_base_jobid,
    PMIX_NAMESPACE,
    PMI_RANK,
    PMI_SIZE,
    PMI_LOCAL_RANK,
    PMI_LOCAL_SIZE,
    PMI_ID,
    PMI_KVSNAME,
    MPI_LOCALRANKID,
    MPI_LOCALNRANKS,
    SLURM_PROCID,
    SLURM_NTASKS,
    SLURM_LOCALID,
    SLURM_NNODES,
    SLURM_NODEID,
    SLURM_STEP_ID,
    SLURM_STEPID,
    SLURM_JOB_ID,
    SLURM_STEP_NODELIST,
    SLURM_JOB_NODELIST,
    SLURM_NODELIST,
    SLURM_STEP_TASKS_PER_NODE,
    SLURM_TASKS_PER_NODE,
    /** The node's name as Slurm knows it (launch/HostName.node). */
    SLURMD_NODENAME
}
