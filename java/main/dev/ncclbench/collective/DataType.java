package dev.ncclbench.collective;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** Element types, with the names and sizes nccl-tests uses (its -d flag and its "type" column). */
public enum DataType {
    INT8("int8", 1, true),
    UINT8("uint8", 1, true),
    INT32("int32", 4, true),
    UINT32("uint32", 4, true),
    INT64("int64", 8, true),
    UINT64("uint64", 8, true),
    HALF("half", 2, false),
    FLOAT("float", 4, false),
    DOUBLE("double", 8, false),
    BFLOAT16("bfloat16", 2, false),
    F8E4M3("f8e4m3", 1, false),
    F8E5M2("f8e5m2", 1, false);

    private final String ncclTestsName;
    private final int bytes;
    private final boolean integer;

    DataType(String ncclTestsName, int bytes, boolean integer) {
        this.ncclTestsName = ncclTestsName;
        this.bytes = bytes;
        this.integer = integer;
    }

    /** The name in nccl-tests' table and -d flag. */
    @JsonValue
    public String label() {
        return ncclTestsName;
    }

    public int bytes() {
        return bytes;
    }

    public boolean isInteger() {
        return integer;
    }

    /** Parses nccl-tests' names and its aliases (int, fp16, fp32, fp64, bf16); null when unknown. */
    @JsonCreator
    public static DataType parse(String s) {
        String k = s.trim().toLowerCase(Locale.ROOT);
        switch (k) {
            case "int": case "int32_t": return INT32;
            case "char": case "int8_t": return INT8;
            case "uint8_t": return UINT8;
            case "uint32_t": return UINT32;
            case "int64_t": return INT64;
            case "uint64_t": return UINT64;
            case "fp16": case "float16": return HALF;
            case "fp32": case "float32": return FLOAT;
            case "fp64": case "float64": return DOUBLE;
            case "bf16": return BFLOAT16;
            default:
                for (DataType t : values()) {
                    if (t.ncclTestsName.equals(k)) {
                        return t;
                    }
                }
                return null;
        }
    }

    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (DataType t : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(t.ncclTestsName);
        }
        return sb.toString();
    }
}
