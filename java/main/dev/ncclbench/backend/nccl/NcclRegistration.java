package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.cuda.nccl.ncclWindow_vidmem;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

import java.util.ArrayList;
import java.util.List;

/**
 * nccl-tests' -R (common.cu): with 1 each GPU's send and receive buffers are registered with its communicator
 * (ncclCommRegister, NCCL 2.19), with 2 as symmetric windows (ncclCommWindowRegister with NCCL_WIN_COLL_SYMMETRIC,
 * NCCL 2.27), over the whole allocation; released before the buffers are freed. Where the loaded NCCL lacks the call
 * the run is refused by name (nccl-tests ignores -R before 2.19 and turns -R 2 into -R 1 before 2.27, silently for a
 * script that meant it).
 */
final class NcclRegistration {
    private final List<Runnable> release = new ArrayList<>();

    private NcclRegistration() {
    }

    static final NcclRegistration NONE = new NcclRegistration();

    /** The one line that refuses -R {@code mode} on an NCCL without its call, or null when it has it (or mode 0). */
    static String missing(int mode, NcclSymbols symbols, String version) {
        if (mode == 1 && !symbols.register()) {
            return "-R 1 (local_register) needs ncclCommRegister (NCCL 2.19 and later), which NCCL " + version
                    + " does not have; drop -R";
        }
        if (mode == 2 && !symbols.window()) {
            return "-R 2 (local_register) needs ncclCommWindowRegister (NCCL 2.27 and later), which NCCL " + version
                    + " does not have; nccl-tests itself falls back to -R 1 there: use -R 1";
        }
        return null;
    }

    /** Registers every GPU's two buffers of {@code bytes} with its communicator (the caller has set each device). */
    static NcclRegistration register(int mode, NcclSymbols symbols, String version, ncclComm[] comms,
                                     BytePointer[] send, BytePointer[] recv, long bytes) {
        if (mode == 0) {
            return NONE;
        }
        String refused = missing(mode, symbols, version);
        if (refused != null) {
            throw new BackendException(ExitCode.USAGE, "nccl-tests flag " + refused, null);
        }
        NcclRegistration r = new NcclRegistration();
        try {
            for (int i = 0; i < comms.length; i++) {
                for (BytePointer buffer : new BytePointer[] {send[i], recv[i]}) {
                    r.add(mode, comms[i], buffer, bytes);
                }
            }
        } catch (RuntimeException e) {
            r.release();
            throw e;
        }
        return r;
    }

    private void add(int mode, ncclComm comm, BytePointer buffer, long bytes) {
        // the out-parameter (void** / ncclWindow_t*) as a one-slot PointerPointer: what NCCL writes is read back
        PointerPointer<Pointer> out = new PointerPointer<>(1);
        if (mode == 2) {
            NcclRuntime.check(nccl.ncclCommWindowRegister(comm, buffer, bytes, out, nccl.NCCL_WIN_COLL_SYMMETRIC),
                    "ncclCommWindowRegister");
            ncclWindow_vidmem window = new ncclWindow_vidmem(out.get(0));
            release.add(() -> nccl.ncclCommWindowDeregister(comm, window));
        } else {
            NcclRuntime.check(nccl.ncclCommRegister(comm, buffer, bytes, out), "ncclCommRegister");
            Pointer handle = out.get(0);
            release.add(() -> nccl.ncclCommDeregister(comm, handle));
        }
    }

    /** Deregisters everything, last first; a failure is not reported (the buffers are freed next either way). */
    void release() {
        for (int i = release.size() - 1; i >= 0; i--) {
            release.get(i).run();
        }
        release.clear();
    }
}
