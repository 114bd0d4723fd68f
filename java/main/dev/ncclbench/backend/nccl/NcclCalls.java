package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.Kind;
import dev.ncclbench.collective.ReduceOp;
import org.bytedeco.cuda.cudart.CUstream_st;
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

    /** @return the ncclResult_t of the first call that failed, else 0 */
    static int run(Kind kind, NcclSymbols sym, BytePointer send, BytePointer recv, long count, DataType type, ReduceOp op,
                   int root, int rank, int n, ncclComm comm, CUstream_st s) {
        int dt = ncclType(type);
        int eb = type.bytes();
        return switch (kind) {
            case ALL_REDUCE -> nccl.ncclAllReduce(send, recv, count, dt, ncclOp(op), comm, s);
            case ALL_GATHER -> nccl.ncclAllGather(send, recv, count, dt, comm, s);
            case REDUCE_SCATTER -> nccl.ncclReduceScatter(send, recv, count, dt, ncclOp(op), comm, s);
            case BROADCAST -> nccl.ncclBroadcast(send, recv, count, dt, root, comm, s);
            case REDUCE -> nccl.ncclReduce(send, recv, count, dt, ncclOp(op), root, comm, s);
            case SENDRECV -> {
                int r = nccl.ncclSend(send, count, dt, (rank + 1) % n, comm, s);
                yield r != 0 ? r : nccl.ncclRecv(recv, count, dt, (rank - 1 + n) % n, comm, s);
            }
            case ALLTOALL -> {
                if (sym.allToAll()) {
                    yield nccl.ncclAlltoAll(send, recv, count, dt, comm, s);
                }
                int r = 0;
                for (int p = 0; p < n && r == 0; p++) {
                    r = nccl.ncclSend(at(send, p * count * eb), count, dt, p, comm, s);
                    r = r != 0 ? r : nccl.ncclRecv(at(recv, p * count * eb), count, dt, p, comm, s);
                }
                yield r;
            }
            case GATHER -> {
                if (sym.gatherScatter()) {
                    yield nccl.ncclGather(send, recv, count, dt, root, comm, s);
                }
                int g = nccl.ncclSend(send, count, dt, root, comm, s);
                for (int p = 0; rank == root && p < n && g == 0; p++) {
                    g = nccl.ncclRecv(at(recv, p * count * eb), count, dt, p, comm, s);
                }
                yield g;
            }
            case SCATTER -> {
                if (sym.gatherScatter()) {
                    yield nccl.ncclScatter(send, recv, count, dt, root, comm, s);
                }
                int c = 0;
                for (int p = 0; rank == root && p < n && c == 0; p++) {
                    c = nccl.ncclSend(at(send, p * count * eb), count, dt, p, comm, s);
                }
                yield c != 0 ? c : nccl.ncclRecv(recv, count, dt, root, comm, s);
            }
        };
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
