package dev.ncclbench.collective;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** Reduction operators, named as nccl-tests' -o flag and "redop" column name them. */
public enum ReduceOp {
    SUM("sum"), PROD("prod"), MAX("max"), MIN("min"), AVG("avg");

    private final String label;

    ReduceOp(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    /** null when unknown. */
    @JsonCreator
    public static ReduceOp parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT);
        for (ReduceOp op : values()) {
            if (op.label.equals(k)) {
                return op;
            }
        }
        return null;
    }

    public static String names() {
        return "sum, prod, max, min, avg";
    }
}
