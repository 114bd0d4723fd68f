package dev.ncclbench;

/**
 * A failure that ends the command with a given exit code and one line for the user.
 * Thrown anywhere below the CLI; Main turns it into the line and the code, never a stack trace.
 */
public class NcclbenchException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ExitCode exitCode;

    public NcclbenchException(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public NcclbenchException(ExitCode exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }

    public static NcclbenchException usage(String message) {
        return new NcclbenchException(ExitCode.USAGE, message);
    }
}
