package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.collective.AllToAllVPattern;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.Kind;
import dev.ncclbench.collective.ReduceOp;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.javacpp.BytePointer;

/**
 * One rank's NCCL call for one collective, as nccl-tests' per-collective runColl: the NCCL function where
 * this libnccl has it, else the grouped send/recv form nccl-tests falls back to (ncclAlltoAll, ncclGather
 * and ncclScatter only exist from NCCL 2.28; calling a missing symbol would kill the JVM, so the symbols
 * are looked up first, see {@link NcclSymbols}).
 */
final class NcclCalls {
    private NcclCalls() {
    }

    /**
     * @param coll the call's collective (alltoallv's carries the sweep's spread)
     * @return the ncclResult_t of the first call that failed, else 0
     */
    static int run(Collective coll, NcclSymbols sym, BytePointer send, BytePointer recv, long count, DataType type, ReduceOp op,
                   int root, int rank, int n, ncclComm comm, CUstream_st s) {
        int dt = ncclType(type);
        int eb = type.bytes();
        Kind kind = coll.kind();
        return switch (kind) {
            case ALL_REDUCE -> nccl.ncclAllReduce(send, recv, count, dt, ncclOp(op), comm, s);
            case ALL_GATHER -> nccl.ncclAllGather(send, recv, count, dt, comm, s);
            case REDUCE_SCATTER -> nccl.ncclReduceScatter(send, recv, count, dt, ncclOp(op), comm, s);
            case BROADCAST -> nccl.ncclBroadcast(send, recv, count, dt, root, comm, s);
            case REDUCE -> nccl.ncclReduce(send, recv, count, dt, ncclOp(op), root, comm, s);
            case SENDRECV -> p2p(P2pPlan.of(kind, count, root, rank, n), send, recv, count, dt, eb, comm, s);
            case ALLTOALL -> sym.allToAll() ? nccl.ncclAlltoAll(send, recv, count, dt, comm, s)
                    : p2p(P2pPlan.of(kind, count, root, rank, n), send, recv, count, dt, eb, comm, s);
            // nccl-tests issues nothing for a gather or scatter of 0 elements, native call included
            case GATHER -> count == 0 ? 0 : sym.gatherScatter() ? nccl.ncclGather(send, recv, count, dt, root, comm, s)
                    : p2p(P2pPlan.of(kind, count, root, rank, n), send, recv, count, dt, eb, comm, s);
            case SCATTER -> count == 0 ? 0 : sym.gatherScatter() ? nccl.ncclScatter(send, recv, count, dt, root, comm, s)
                    : p2p(P2pPlan.of(kind, count, root, rank, n), send, recv, count, dt, eb, comm, s);
            case ALLTOALLV -> p2p(P2pPlan.of(kind, count, root, rank, n, AllToAllVPattern.of(coll, count, n, eb)), send, recv,
                    count, dt, eb, comm, s);
            case HYPERCUBE -> p2p(P2pPlan.of(kind, count, root, rank, n), send, recv, count, dt, eb, comm, s);
        };
    }

    /**
     * The plan's send/recv set in one ncclGroupStart/End (nested inside the -m and -g groups, which NCCL allows). The
     * group is ended even after a failed call, so that the thread is not left inside an open group.
     */
    private static int p2p(P2pPlan plan, BytePointer send, BytePointer recv, long count, int dt, int eb, ncclComm comm,
                           CUstream_st s) {
        P2pPlan.Transfer own = plan.localCopy();
        BytePointer from = send;
        if (own != null) {
            // hypercube.cu: its own block into place unless it is there already (in place), then every step in recv
            BytePointer to = at(recv, own.offset() * eb);
            if (to.address() + to.position() != send.address() + send.position()) {
                int c = cudart.cudaMemcpyAsync(to, send, own.count() * eb, cudart.cudaMemcpyDeviceToDevice, s);
                if (c != 0) {
                    return nccl.ncclUnhandledCudaError;
                }
            }
            from = recv;
        }
        for (java.util.List<P2pPlan.Transfer> group : plan.groups()) {
            int r = nccl.ncclGroupStart();
            if (r != 0) {
                return r;
            }
            for (P2pPlan.Transfer t : group) {
                long at = t.offset() * eb;
                r = t.send() ? nccl.ncclSend(at == 0 ? from : at(from, at), t.count(), dt, t.peer(), comm, s)
                        : nccl.ncclRecv(at == 0 ? recv : at(recv, at), t.count(), dt, t.peer(), comm, s);
                if (r != 0) {
                    break;
                }
            }
            int end = nccl.ncclGroupEnd();
            if (r != 0 || end != 0) {
                return r != 0 ? r : end;
            }
        }
        return 0;
    }

    private static BytePointer at(BytePointer p, long bytes) {
        return new BytePointer(p).position(p.position() + bytes);
    }

    static int ncclType(DataType t) {
        switch (t) {
            case INT8: return nccl.ncclInt8;
            case UINT8: return nccl.ncclUint8;
            case INT32: return nccl.ncclInt32;
            case UINT32: return nccl.ncclUint32;
            case INT64: return nccl.ncclInt64;
            case UINT64: return nccl.ncclUint64;
            case HALF: return nccl.ncclFloat16;
            case FLOAT: return nccl.ncclFloat32;
            case DOUBLE: return nccl.ncclFloat64;
            case BFLOAT16: return nccl.ncclBfloat16;
            default: throw new BackendException(ExitCode.USAGE, NcclBackend.refusal(t), null);
        }
    }

    static int ncclOp(ReduceOp op) {
        switch (op) {
            case SUM: return nccl.ncclSum;
            case PROD: return nccl.ncclProd;
            case MAX: return nccl.ncclMax;
            case MIN: return nccl.ncclMin;
            case AVG: return nccl.ncclAvg;
            default: throw new IllegalArgumentException(op.toString());
        }
    }
}
