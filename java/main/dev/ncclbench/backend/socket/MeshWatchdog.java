package dev.ncclbench.backend.socket;

import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One daemon thread for every mesh of the process: it aborts a mesh whose exchange has run past the
 * timeout. Aborting closes the sockets, which wakes the blocked reads and writes with an exception.
 */
final class MeshWatchdog {
    static final MeshWatchdog INSTANCE = new MeshWatchdog();

    private final Set<Mesh> meshes = Collections.newSetFromMap(new ConcurrentHashMap<>());
    private volatile boolean started;

    private MeshWatchdog() {
    }

    void watch(Mesh m) {
        if (meshes.add(m) && !started) {
            synchronized (this) {
                if (!started) {
                    Thread t = new Thread(this::loop, "ncclbench-socket-watchdog");
                    t.setDaemon(true);
                    t.start();
                    started = true;
                }
            }
        }
    }

    private void loop() {
        while (true) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Mesh m : meshes) {
                if (m.aborted()) {
                    meshes.remove(m);
                } else if (m.overdue(now)) {
                    m.timeOut();
                    meshes.remove(m);
                }
            }
        }
    }
}
