package dev.ncclbench.cli;

import dev.ncclbench.spec.Sizes;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A size flag: bytes, or binary K, M, G suffixes (1K = 1024), fractions allowed (1.5G); never negative. */
final class SizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        long v;
        try {
            v = Sizes.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
        if (v < 0) {
            throw new TypeConversionException("negative size");
        }
        return v;
    }
}
