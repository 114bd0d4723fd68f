package dev.ncclbench.backend;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

/** The one exception a backend throws: an exit code, a sentence, and what to change. */
public class BackendException extends NcclbenchException {
    private static final long serialVersionUID = 1L;
    private final String remedy;

    public BackendException(ExitCode code, String message, String remedy, Throwable cause) {
        super(code, message, cause);
        this.remedy = remedy;
    }

    public BackendException(ExitCode code, String message, String remedy) {
        this(code, message, remedy, null);
    }

    /** What to change, or null. */
    public String remedy() {
        return remedy;
    }

    @Override
    public String getMessage() {
        return remedy == null ? super.getMessage() : super.getMessage() + "; " + remedy;
    }
}
