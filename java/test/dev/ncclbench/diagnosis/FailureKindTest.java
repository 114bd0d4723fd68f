package dev.ncclbench.diagnosis;

import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One WARN (or error) line per family, as NCCL (or the application) prints it: NCCL's format strings filled in, and
 * lines as users posted them (the issue in the comment). Read through the real reader, then classified.
 */
class FailureKindTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            BOOTSTRAP     | vm:5378:5378 [0] bootstrap.cc:126 (bootstrapNetInit) NCCL WARN Bootstrap : no socket interface found
            PEER_LOST     | h:1:2 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer node2<42830>
            PEER_LOST     | h:1:2 [0] proxy.cc:1190 NCCL WARN Socket recv failed while polling for opId=0x7f6f18cb7f40
            PEER_LOST     | gpu-server320 [5] misc/socket.cc:46 NCCL WARN socketProgressOpt: Call to send to 10.44.137.149<52905> failed : Connection reset by peer
            PEER_LOST     | h:1:2 [0] misc/socket.cc:60 NCCL WARN Net : Call to recv from 10.0.0.2<1234> failed : Broken pipe
            CONNECT       | h:1:2 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort
            CONNECT       | h:1:2 [0] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3
            CONNECT       | h:1:2 [0] misc/socket.cc:530 NCCL WARN socketPollConnect: connect returned Connection timed out, exceeded error retry count (35)
            CONNECT       | h:1:2 [0] bootstrap.cc:97 NCCL WARN Bootstrap : Connect to 10.0.0.1<3456> failed : No route to host
            RENDEZVOUS    | h:1:2 [0] bootstrap.cc:145 NCCL WARN Bootstrap Root : rank 3 of 8 ranks has already checked in
            RENDEZVOUS    | h:1:2 [0] bootstrap.cc:327 NCCL WARN Bootstrap Root : mismatch in info from procs, nranks 8 vs 16, nroots 1 vs 1, iroot 0 vs 0
            RENDEZVOUS    | h:1:2 [0] bootstrap.cc:1184 NCCL WARN Unexpected connections are not empty
            IB_COMPLETION | kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv)
            IB_COMPLETION | H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer fe80::966d%ib0<53249> with error 4, opcode 32564, len 32564, vendor err 81 (Send)
            IB_COMPLETION | h:1:2 [0] transport/net_ib.cc:2210 (ncclIbTest) NCCL WARN NET/IB: Got completion from peer 10.0.0.2<1> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129 hca mlx5_0
            VERBS         | h:1:2 [0] misc/ibvwrap.cc:262 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR
            VERBS         | h:1:2 [0] misc/ibvwrap.cc:191 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory
            VERBS         | h:1:2 [0] misc/ibvwrap.cc:160 NCCL WARN Call to ibv_create_qp failed
            VERBS         | h:1:2 [0] transport/net_ib.cc:123 NCCL WARN NET/IB : mlx5_0:1 async fatal event: local catastrophic error
            CUDA          | tomte401:1850301:1881341 [0] transport.cc:154 NCCL WARN Cuda failure 'invalid argument'
            CUDA          | h:1:2 [1] include/checks.h:16 NCCL WARN Cuda failure 'out of memory'
            CUDA          | h:1:2 [1] include/alloc.h:186 NCCL WARN Failed to CUDA calloc 6291456 bytes
            CUDA          | h:1:2 [1] enqueue.cc:1556 NCCL WARN Cuda failure 700 'an illegal memory access was encountered'
            PLUGIN        | h:1:2 [0] nccl_ofi_net.c:1050 NCCL WARN NET/OFI Couldn't open a fabric provider. RC: -61, ERROR: No data available
            PLUGIN        | h:1:2 [0] net_tcpx.cc:120 NCCL WARN NET/GPUDirectTCPX : rxdm init failed
            SOCKET        | h:1:2 [0] misc/socket.cc:716 NCCL WARN ncclSocketInit: connecting to address  with family 0 is neither AF_INET(2) nor AF_INET6(10)
            SOCKET        | h:1:2 [0] misc/socket.cc:381 NCCL WARN Net : No interface found in the same subnet as remote address 10.9.9.9<29500>
            ASYNC         | user:16901:16967 [2] proxy.cc:1519 NCCL WARN [Proxy Service 2] Failed to execute operation Connect from rank 2, retcode 3
            ASYNC         | tomte401:1:2 [0] proxy.cc:1485 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=3, closing connection
            ASYNC         | ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.
            ASYNC         | h:1:2 [0] init.cc:2020 NCCL WARN Comm 0x55d1 is in abort state
            ERROR         | RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL version 2.14.3
            ERROR         | Test NCCL failure common.cu:958 'internal error - please report this issue to the NCCL developers / '
            ERROR         | h:1:2 [0] NCCL INFO misc/socket.cc:564 -> 2
            SLOW_PROGRESS | a3-0:4100:4171 [0] tcpxResult_t tcpxCommProgress(tcpxComm*):1238 NCCL WARN 0x7f21c0:0x7f2080, nic 0, eth1, 192.168.1.10<54701><-192.168.1.11<42789> rx ctrl timeout cnt 1, nanos 500001359
            KNOWN         | h:1:2 [0] transport.cc:305 NCCL WARN Cannot initialize CollNet, using point-to-point network instead
            KNOWN         | h:1:2 [0] misc/ibvwrap.cc:112 NCCL WARN Failed to open libibverbs.so[.1]
            KNOWN         | h:1:2 [0] transport/net_ib.cc:80 NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: GID table change(18)
            NONE          | h:1:2 [0] init.cc:1602 (ncclCommInitRankFunc) NCCL WARN made-up warning nobody knows
            """)
    void everyFamilyFromItsOwnLines(FailureKind kind, String line) {
        NcclLogEvidence e = NcclLogReader.readString(line + "\n", "t.log");
        assertEquals(1, e.warnings().size(), line + " -> " + e.warnings());
        assertEquals(kind, FailureKind.of(e.warnings().get(0)), line);
    }
}
