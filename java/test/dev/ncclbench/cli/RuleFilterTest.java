package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.rules.ExplainRules;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.gate.curve.CurveRules;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One --ignore for every rule book: any book's id is accepted, each book gets its own, an unknown id is exit 2. */
class RuleFilterTest {

    private static RuleFilter parse(String... args) {
        @CommandLine.Command(name = "t")
        class Holder {
            @CommandLine.Mixin
            RuleFilter rules = new RuleFilter();
        }
        Holder h = new Holder();
        new CommandLine(h).parseArgs(args);
        return h.rules;
    }

    @Test
    void eachBookGetsTheIdsItHas() {
        String explain = ExplainRules.book().rules().get(0).id();
        String doctor = DoctorRules.book().rules().get(0).id();
        String curve = CurveRules.book().rules().get(0).id();
        RuleFilter f = parse("--ignore", explain + "," + doctor, "--ignore", curve);
        assertEquals(Set.of(explain, doctor, curve), f.ignored());
        assertEquals(Set.of(doctor), f.ignoredIn(DoctorRules.book()));
        assertEquals(Set.of(curve), f.ignoredIn(CurveRules.book()));
        assertEquals(List.of(explain), List.copyOf(f.ignoredIn(ExplainRules.book())));
    }

    @Test
    void anIdNoBookHasIsAUsageError() {
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> parse("--ignore", "NO-SUCH-RULE").ignored());
        assertEquals(2, e.exitCode().code);
        assertTrue(e.getMessage().contains("--ignore NO-SUCH-RULE: no rule has that id"), e.getMessage());
    }
}
