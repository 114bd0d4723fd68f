package dev.ncclbench.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where the sweep's -e came from, as the result's "max_bytes_source" records it. The sentence that explains a
 * lowered -e is a header note of its own; this says only which of four things happened.
 */
public enum MaxBytesSource {
    /** Typed by the user, and swept as typed. */
    FLAG("flag"),
    /** The command's default (the sweep's 8G on GPUs or 128M in host memory, preflight's 1G or 64M, nccl-tests' 32M). */
    DEFAULT("default"),
    /** The default, lowered to what fits where the backend keeps its buffers. */
    FITTED("fitted"),
    /** Typed by the user and lowered as nccl-tests lowers it ("Reducing maxBytes to N due to memory limitation"). */
    REDUCED("reduced");

    private final String wire;

    MaxBytesSource(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** Whether the user typed -e (then it is lowered only where nccl-tests lowers it, never raised). */
    public boolean given() {
        return this == FLAG || this == REDUCED;
    }

    /**
     * Reads a result: the four names, or (files written before 2026-12-05) the sentence that said why the
     * default was lowered ("-e defaults to 128 MiB on ...") or how a given one was ("Reducing maxBytes to ...").
     */
    @JsonCreator
    public static MaxBytesSource of(String s) {
        if (s == null) {
            return null;
        }
        for (MaxBytesSource m : values()) {
            if (m.wire.equals(s)) {
                return m;
            }
        }
        return s.startsWith("Reducing maxBytes") ? REDUCED : FITTED;
    }
}
