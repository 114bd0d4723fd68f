package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.env.Host;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the store is and who may join: rank 0's process serves it, every local rank of every process connects.
 * The address is --rendezvous, else MASTER_ADDR/MASTER_PORT, else loopback for one-node jobs; the token is
 * made of the job's secret ({@link JobSecret}), else derived from the launcher's job id and the address, so that a
 * process of another job is refused (but not one that means to join: such a run is not authenticated).
 */
public final class Rendezvous implements AutoCloseable {
    /** torchrun's own store listens on MASTER_PORT; ours takes the next port. */
    static final int TORCHRUN_PORT_OFFSET = 1;

    private final StoreServer server;
    private final List<ControlPlane> planes;
    private final String address;
    private final boolean authenticated;

    private Rendezvous(StoreServer server, List<ControlPlane> planes, String address, boolean authenticated) {
        this.server = server;
        this.planes = planes;
        this.address = address;
        this.authenticated = authenticated;
    }

    /** Whether only a holder of the job's secret could join ({@link Place#authenticated}). */
    public boolean authenticated() {
        return authenticated;
    }

    /** One control plane per local rank, in local-rank order. */
    public List<ControlPlane> planes() {
        return planes;
    }

    /** HOST:PORT of the store. */
    public String address() {
        return address;
    }

    /**
     * Where rank 0 serves, and the token every process of this job proves it holds: the same on every process.
     * {@code authenticated}: the token is made of a secret the launcher gave the job (or, for one process, of a random
     * one it keeps), not only of what anyone can read from the scheduler. {@code job}: what the token binds the secret
     * to, as this process read it from its launcher ("slurm job 4242.0, 2 processes"), for a refusal to name.
     */
    public record Place(String host, int port, byte[] token, boolean authenticated, String job) {
    }

    public static Rendezvous start(LaunchInfo launch, int localRanks, String flag, Host host, long timeoutMillis) {
        return start(launch, localRanks, flag, host, timeoutMillis, null);
    }

    /**
     * @param flags what every rank of the job must have been started with alike, one "flag value" a line (null:
     *              nothing to compare): a process that differs ends the job at once, exit 2, naming the flag
     */
    public static Rendezvous start(LaunchInfo launch, int localRanks, String flag, Host machine, long timeoutMillis,
                                   String flags) {
        int world = launch.size() * localRanks;
        Place place = place(launch, localRanks, flag, machine);
        String host = place.host();
        int port = place.port();
        byte[] token = place.token();
        StoreServer server = null;
        if (launch.rank() == 0) {
            try {
                InetSocketAddress bind = launch.size() == 1 || host.startsWith("127.") || host.equals("localhost")
                        ? new InetSocketAddress("127.0.0.1", port) : new InetSocketAddress(port);
                server = bindRetrying(bind, token, world, timeoutMillis);
                port = server.port();
            } catch (IOException e) {
                throw new NcclbenchException(ExitCode.ENVIRONMENT, "rank 0 cannot serve the rendezvous on port " + port + ": "
                        + e.getMessage() + "; another job may hold it: choose another MASTER_PORT or --rendezvous HOST:PORT");
            }
        }
        List<ControlPlane> planes = new ArrayList<>();
        try {
            // one connection for this process's ranks: 1024 nodes x 8 ranks are 1024 connections to the store
            planes.addAll(StoreClient.connectAll(new InetSocketAddress(host, port), token, launch.rank() * localRanks,
                    localRanks, world, timeoutMillis, flags, HostName.node(null, machine)));
        } catch (RuntimeException e) {
            planes.forEach(ControlPlane::close);
            if (server != null) {
                server.close();
            }
            throw e instanceof NcclbenchException n && n.getMessage().endsWith(StoreServer.WRONG_JOB)
                    ? new NcclbenchException(n.exitCode(), n.getMessage() + "; this process: " + place.job()) : e;
        }
        return new Rendezvous(server, planes, host + ":" + port, place.authenticated());
    }

    /** The store's address and token for this job, from --rendezvous, MASTER_ADDR/MASTER_PORT or the job id. */
    public static Place place(LaunchInfo launch, int localRanks, String flag, Host machine) {
        int world = launch.size() * localRanks;
        String host;
        int port;
        byte[] token;
        if (flag != null) {
            // checked in every run, single-process ones too: a typo must not pass silently
            parseAddress(flag);
        }
        // likewise: a secret that cannot be read is said in every run
        Optional<String> secret = JobSecret.of(machine);
        if (launch.size() == 1) {
            host = "127.0.0.1";
            port = 0;
            // one process: its own random secret, which never leaves it
            token = new byte[32];
            new SecureRandom().nextBytes(token);
            return new Place(host, port, token, true, "one process");
        } else {
            if (flag != null) {
                InetSocketAddress given = parseAddress(flag);
                host = given.getHostString();
                port = given.getPort();
            } else {
                host = launch.masterAddr();
                if (host == null) {
                    if (!launch.singleNode()) {
                        throw NcclbenchException.usage("a " + launch.size() + "-process job across nodes needs rank 0's address:"
                                + " set MASTER_ADDR and MASTER_PORT (e.g. mpirun -x MASTER_ADDR=node0 -x MASTER_PORT=29500)"
                                + " or pass --rendezvous HOST:PORT");
                    }
                    host = "127.0.0.1";
                }
                port = launch.masterPort() > 0 ? launch.masterPort() : derivedPort(launch);
                if (launch.launcher().equals("torchrun") && launch.masterPort() > 0) {
                    port += TORCHRUN_PORT_OFFSET;
                    if (port > 65535) {
                        throw NcclbenchException.usage("MASTER_PORT=" + launch.masterPort() + " leaves no port for ours: torchrun's"
                                + " store holds MASTER_PORT and ncclbench's takes the next one; choose a lower MASTER_PORT");
                    }
                }
            }
            // the secret bound to this job: another job given the same secret makes another token (JobProof.token).
            // Without a secret the token is made of what anyone reads from the scheduler: it keeps out another job's
            // processes, not a person who means to join
            token = secret.isPresent() ? JobProof.token(secret.get(), launch.launcher(), launch.jobId(), world)
                    : sha(launch.launcher() + "|" + launch.jobId() + "|" + host + "|" + port + "|" + world);
        }
        String job = launch.launcher() + (launch.jobId() == null ? " (no job id)" : " job " + launch.jobId()) + ", " + world
                + (world == 1 ? " rank" : " ranks");
        return new Place(host, port, token, secret.isPresent(), job);
    }

    /** A port held a moment longer by a previous job's socket frees itself: try again for about two seconds. */
    private static StoreServer bindRetrying(InetSocketAddress bind, byte[] token, int world, long timeoutMillis)
            throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return new StoreServer(bind, token, world, timeoutMillis);
            } catch (java.net.BindException e) {
                if (attempt >= 10 || bind.getPort() == 0) {
                    throw e;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** The same on every process of a job: launchers give no port, so one is derived from the job id. */
    static int derivedPort(LaunchInfo launch) {
        return Ports.derive(launch.jobId() == null ? "ncclbench" : launch.jobId());
    }

    /** --rendezvous HOST:PORT, unresolved. */
    static InetSocketAddress parseAddress(String flag) {
        int colon = flag.lastIndexOf(':');
        if (colon <= 0 || flag.substring(0, colon).isBlank()) {
            throw NcclbenchException.usage("--rendezvous wants HOST:PORT, got '" + flag + "'");
        }
        return InetSocketAddress.createUnresolved(flag.substring(0, colon).trim(), parsePort(flag.substring(colon + 1), "--rendezvous"));
    }

    private static int parsePort(String s, String what) {
        try {
            int p = Integer.parseInt(s.trim());
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw NcclbenchException.usage(what + ": '" + s + "' is not a port (1-65535)");
        }
    }

    private static byte[] sha(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        planes.forEach(ControlPlane::close);
        if (server != null) {
            server.close();
        }
    }
}
