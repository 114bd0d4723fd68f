package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;

import java.nio.file.Path;

/**
 * A flag renamed so that one thing has one name in every command; its old name is still taken, hidden, so that the
 * scripts and CI jobs written with it go on working (README, "Flag names").
 */
final class RenamedFlag {
    private RenamedFlag() {
    }

    /**
     * The value given under either name (null: neither); the two names given two values is exit 2.
     *
     * @param what what both name, for the message ("baseline folders")
     */
    static Path value(String flag, Path value, String oldFlag, Path oldValue, String what) {
        if (value != null && oldValue != null && !value.equals(oldValue)) {
            throw NcclbenchException.usage(flag + " " + value + " and " + oldFlag + " " + oldValue + " name two " + what
                    + ": give " + flag + " once (" + oldFlag + " is its old name)");
        }
        return value != null ? value : oldValue;
    }
}
