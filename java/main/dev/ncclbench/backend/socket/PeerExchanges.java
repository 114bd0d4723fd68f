package dev.ncclbench.backend.socket;

import dev.ncclbench.collective.AllToAllVPattern;
import dev.ncclbench.collective.Counts;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * nccl-tests' two collectives made of plain sends and receives, as their RunColl issues them: alltoallv (alltoallv.cu:
 * per peer the pattern's count, packed in peer order on both sides) and hypercube (hypercube.cu: at step mask the
 * blocks gathered so far go to rank ^ mask, whose blocks come back).
 */
final class PeerExchanges {
    private PeerExchanges() {
    }

    static void allToAllV(SocketOperation op) {
        Counts counts = op.call().counts();
        int rank = op.rank();
        int n = op.n();
        int elt = op.elt();
        AllToAllVPattern pattern = AllToAllVPattern.of(op.call().collective(), counts.paramCount(), n, elt);
        ByteBuffer src = op.sendBuffer();
        int srcOff = op.sendOffset();
        if (op.call().inPlace()) {
            // nccl-tests sends and receives in one buffer here (and does not check it); a copy keeps ours defined
            op.copy(src, srcOff, op.scratch(), 0, op.sendBytes());
            src = op.scratch();
            srcOff = 0;
        }
        List<Xfer> sends = new ArrayList<>();
        List<Xfer> recvs = new ArrayList<>();
        long sent = 0;
        long received = 0;
        for (int p = 0; p < n; p++) {
            int s = (int) (pattern.count(rank, p) * elt);
            int r = (int) (pattern.count(p, rank) * elt);
            int sAt = srcOff + (int) sent;
            int rAt = op.recvOffset() + (int) received;
            if (p == rank) {
                op.copy(src, sAt, op.main(), rAt, s);
            } else {
                if (s > 0) {
                    sends.add(Xfer.send(p, SocketOperation.region(src, sAt, s)));
                }
                if (r > 0) {
                    recvs.add(Xfer.recv(p, SocketOperation.region(op.main(), rAt, r)));
                }
            }
            sent += s;
            received += r;
        }
        op.exchange(sends, recvs);
    }

    static void hypercube(SocketOperation op) {
        int rank = op.rank();
        int block = (int) (op.call().counts().paramCount() * op.elt());
        int rOff = op.recvOffset();
        op.copy(op.sendBuffer(), op.sendOffset(), op.main(), rOff + rank * block, block);
        for (int mask = 1; mask < op.n(); mask <<= 1) {
            int s = rank & ~(mask - 1);
            int r = s ^ mask;
            int peer = rank ^ mask;
            op.exchange(List.of(Xfer.send(peer, SocketOperation.region(op.main(), rOff + s * block, block * mask))),
                    List.of(Xfer.recv(peer, SocketOperation.region(op.main(), rOff + r * block, block * mask))));
        }
    }
}
