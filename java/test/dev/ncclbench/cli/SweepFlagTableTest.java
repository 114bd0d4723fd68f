package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.output.Json;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepFlag;
import dev.ncclbench.spec.SweepProfile;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table of sweep flags agrees with the two things it describes: the command line (each entry is an option of
 * sweep and of preflight, under its letter and long name, with the table's default where the option has one, or
 * preflight's profile's for its -n and -w) and the result (each entry's JSON name is a field of the written spec). A
 * flag added to one and not the other fails here.
 */
class SweepFlagTableTest {
    @Test
    void everyEntryIsAnOptionOfSweepAndPreflightWithItsNamesAndDefault() {
        for (Object command : List.of(new SweepCommand(), new PreflightCommand())) {
            CommandLine cl = new CommandLine(command);
            // preflight's -n and -w show its profile's (its help says its own); sweep's are the table's
            SweepProfile profile = command instanceof PreflightCommand ? SweepProfile.PREFLIGHT : null;
            for (SweepFlag f : SweepFlag.values()) {
                OptionSpec o = cl.getCommandSpec().findOption(f.longName());
                assertNotNull(o, cl.getCommandName() + " has no " + f.longName());
                assertTrue(Arrays.asList(o.names()).contains(f.flag()), f.longName() + " is also " + f.flag());
                Class<?> type = o.type().isPrimitive() ? boxed(o.type()) : o.type();
                if (!type.isEnum()) {
                    assertEquals(f.type(), type, f.flag() + "'s type");
                }
                Object initial = o.initialValue();
                if (initial != null && !(o.typeInfo().isCollection())) {
                    String asGiven = initial instanceof Enum<?> e ? e.name() : String.valueOf(initial);
                    Object expected = profile == null ? f.defaultValue() : f == SweepFlag.ITERS ? profile.iters()
                            : f == SweepFlag.WARMUP_ITERS ? profile.warmupIters() : f.defaultValue();
                    assertEquals(String.valueOf(expected), asGiven, cl.getCommandName() + " " + f.flag() + "'s default");
                }
            }
        }
    }

    private static Class<?> boxed(Class<?> primitive) {
        return primitive == long.class ? Long.class : primitive == int.class ? Integer.class : primitive;
    }

    @Test
    void everyEntryIsAFieldOfTheWrittenSpec() {
        // as written: -e resolved (a spec is written only once the backend gave -e its default)
        JsonNode spec = Json.mapper().valueToTree(RunSpec.builder().maxBytes(SweepFlag.MAX_BYTES.defaultLong()).build());
        for (SweepFlag f : SweepFlag.values()) {
            assertTrue(spec.has(f.json()), "the result's spec has no '" + f.json() + "' for " + f.flag());
        }
    }

    @Test
    void theFlagsRefusedWhenTheyDifferAreTheOnesABaselineIsKeyedBy() {
        for (SweepFlag f : SweepFlag.measured()) {
            assertTrue(f.refusedWhenChanged() && SweepFlag.refusedNames().contains(f.json()), f.flag());
        }
    }
}
