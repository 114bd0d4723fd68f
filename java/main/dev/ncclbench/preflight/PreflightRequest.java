package dev.ncclbench.preflight;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.gate.GateJudge;
import dev.ncclbench.launch.LaunchOptions;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.diagnosis.RouteInputs;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * One preflight, its flags resolved.
 *
 * @param sweep         the short sweep, resolved with {@link dev.ncclbench.spec.SweepProfile#PREFLIGHT}: an -e not
 *                      given is that profile's for the backend that runs (the sweep decides it, as for any sweep)
 * @param sweepPath     the sweep's --fabric, --catalog (with --fabric only) and --socket-floor
 * @param commandLine   the command as typed, recorded in the result
 * @param doctor        whether doctor's host checks run first (not --no-doctor)
 * @param doctorIgnored doctor rule ids left out
 * @param catalog       doctor's catalog (its site section's link rates), or null
 * @param gate          the gate on the sweep's result
 * @param baseline      --baseline, or null for the one whose fingerprint matches
 * @param html          the HTML report to write, or null
 * @param gateText      whether the gate's text goes to the human output (not with --json)
 */
public record PreflightRequest(RunSpec sweep, LaunchOptions launch, RouteInputs sweepPath,
                               List<String> commandLine, boolean doctor, Set<String> doctorIgnored, Path catalog,
                               GateJudge gate, String baseline, Path html, boolean gateText) {
    public PreflightRequest {
        commandLine = List.copyOf(commandLine);
        doctorIgnored = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(doctorIgnored));
    }

    /**
     * The doctor rules left out: --doctor-ignore's (each must be a doctor rule: exit 2 otherwise) and the doctor ids
     * among --ignore's, which is every book's.
     */
    public static Set<String> doctorIgnored(List<String> doctorIgnore, Set<String> everyBook) {
        for (String id : doctorIgnore) {
            if (!DoctorRules.book().knows(id)) {
                throw NcclbenchException.usage("--doctor-ignore " + id + ": no doctor rule has that id (see ncclbench rules)");
            }
        }
        Set<String> ignored = new java.util.LinkedHashSet<>(doctorIgnore);
        everyBook.stream().filter(DoctorRules.book()::knows).forEach(ignored::add);
        return ignored;
    }
}
