package dev.ncclbench.finding;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How much a finding matters: ERROR stops a job or degrades its path, WARNING deserves a look. */
public enum Severity {
    INFO, WARNING, ERROR;

    /** JSON writes it in lower case, like every other word value. */
    @JsonValue
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Either case: documents written before schema 2 of explain and doctor said "ERROR". */
    @JsonCreator
    public static Severity of(String word) {
        return valueOf(word.toUpperCase(Locale.ROOT));
    }
}
