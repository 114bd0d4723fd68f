package dev.ncclbench.output;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A measured number that may not exist (a time never measured, a statistic of no samples): NaN in the model,
 * null on the wire so the file stays valid JSON, NaN again when read back, also when the field is missing (a
 * document written before it existed). The one place that says so; put it on a {@code double} record component.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@JacksonAnnotationsInside
@JsonSerialize(using = NanAsNull.Writer.class)
@JsonDeserialize(using = NanAsNull.Reader.class)
public @interface NanAsNull {

    /** NaN and the infinities as null; a finite value as Jackson writes any double. */
    final class Writer extends JsonSerializer<Double> {
        @Override
        public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
            if (v == null || !Double.isFinite(v)) {
                g.writeNull();
            } else {
                g.writeNumber(v);
            }
        }
    }

    /** null or missing as NaN. */
    final class Reader extends JsonDeserializer<Double> {
        @Override
        public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            return p.currentToken().isNumeric() ? p.getDoubleValue() : ctxt.readValue(p, Double.class);
        }

        @Override
        public Double getNullValue(DeserializationContext ctxt) {
            return Double.NaN;
        }

        @Override
        public Object getAbsentValue(DeserializationContext ctxt) {
            return Double.NaN;
        }
    }
}
