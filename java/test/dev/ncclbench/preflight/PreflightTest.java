package dev.ncclbench.preflight;

import dev.ncclbench.ExitCode;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.gate.GateReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verdict's precedence and wording: FAIL over DEGRADED over PASS, the worst named, the others counted. */
class PreflightTest {
    static final String SLOW_NIC = "NCCL_SOCKET_IFNAME is unset and NCCL will pick eth0 (10 Gbit/s) over rdma0"
            + " (100 Gbit/s): set NCCL_SOCKET_IFNAME=rdma0";
    /** SOCKET-DEFAULT-SLOW-NIC degrades the path; SOCKET-IFNAME-NO-MATCH and SHM-SMALL do not. */
    static final Finding DEGRADING = finding("SOCKET-DEFAULT-SLOW-NIC", Severity.ERROR, SLOW_NIC);
    static final Finding NO_MATCH = finding("SOCKET-IFNAME-NO-MATCH", Severity.ERROR,
            "NCCL_SOCKET_IFNAME=ib9 matches none of the interfaces here (eth0, rdma0)");
    static final Finding SHM = finding("SHM-SMALL", Severity.ERROR, "/dev/shm is 64 MiB");
    static final Finding WARN = finding("RDMA-NONE", Severity.WARNING, "no RDMA device visible in this container");
    static final Preflight.Sweep OK = new Preflight.Sweep(0, null);
    static final Preflight.GateStep GATE_PASS = new Preflight.GateStep(GateReport.Verdict.PASS,
            "PASS: 5 sizes within noise and tolerance of baseline lab", 0, 0, List.of());
    static final Preflight.GateStep GATE_REGRESSED = new Preflight.GateStep(GateReport.Verdict.REGRESSION,
            "REGRESSION: all_reduce 1 MiB busbw -21.3%; all_reduce 4 MiB busbw -20.1%; nothing changed in the"
                    + " fingerprint", 2, 0, List.of());

    static Finding finding(String id, Severity s, String title) {
        return new Finding(id, s, title, "detail", List.of(), List.of("export NCCL_SOCKET_IFNAME=rdma0"),
                References.RUNBOOK);
    }

    @Test
    void passSaysWhatTheGateSaidAndCountsDoctorsWarnings() {
        Preflight.Verdict v = Preflight.decide(List.of(WARN), OK, GATE_PASS);
        assertEquals("PASS: 5 sizes within noise and tolerance of baseline lab; doctor: 1 warning", v.line());
        assertEquals(ExitCode.OK, v.exitCode());
        assertTrue(v.reasons().isEmpty());
        assertEquals("PASS: 5 sizes within noise and tolerance of baseline lab", Preflight.decide(null, OK, GATE_PASS).line());
        assertEquals("PASS: the sweep ran on this rank; rank 0 judges the results; doctor: no errors or warnings",
                Preflight.decide(List.of(), OK, null).line());
    }

    @Test
    void aPathDegradingDoctorErrorIsDegradedWithItsTitle() {
        Preflight.Verdict v = Preflight.decide(List.of(DEGRADING, WARN), OK, GATE_PASS);
        assertEquals("DEGRADED: " + SLOW_NIC, v.line());
        assertEquals(ExitCode.DEGRADED, v.exitCode());
    }

    @Test
    void anyOtherDoctorErrorFailsWithItsIdTitleAndFix() {
        Preflight.Verdict v = Preflight.decide(List.of(NO_MATCH), null, null);
        assertEquals("FAIL: doctor SOCKET-IFNAME-NO-MATCH: NCCL_SOCKET_IFNAME=ib9 matches none of the interfaces here"
                + " (eth0, rdma0); fix: export NCCL_SOCKET_IFNAME=rdma0; the sweep did not run", v.line());
        assertEquals(ExitCode.ENVIRONMENT, v.exitCode());
    }

    @Test
    void warningsAloneChangeNothing() {
        assertEquals(ExitCode.OK, Preflight.decide(List.of(WARN, finding("X", Severity.INFO, "i")), OK, GATE_PASS).exitCode());
    }

    @Test
    void degradedNamesTheFirstStepAndTheOtherBriefly() {
        Preflight.Verdict v = Preflight.decide(List.of(DEGRADING), OK, GATE_REGRESSED);
        assertEquals("DEGRADED: " + SLOW_NIC + " (and the gate: 2 sizes regressed)", v.line());
        assertEquals(ExitCode.DEGRADED, v.exitCode());
        assertEquals(2, v.reasons().size());
    }

    @Test
    void failOutranksDegradedWhicheverStepComesFirst() {
        // doctor degrades, the sweep fails: FAIL with the sweep's exit code, the doctor's counted
        Preflight.Verdict v = Preflight.decide(List.of(DEGRADING), new Preflight.Sweep(5,
                "rank 1 did not reach '#3 all_reduce 4 MiB out-of-place' within 30 s"), null);
        assertEquals("FAIL: the sweep failed (exit 5): rank 1 did not reach '#3 all_reduce 4 MiB out-of-place' within"
                + " 30 s (and doctor SOCKET-DEFAULT-SLOW-NIC)", v.line());
        assertEquals(ExitCode.TIMEOUT, v.exitCode());
    }

    @Test
    void severalMoreAreCountedAndListed() {
        Preflight.Verdict v = Preflight.decide(List.of(NO_MATCH, SHM, DEGRADING),
                new Preflight.Sweep(6, "all_reduce 1 MiB - 4 MiB: socket where RDMA is present"), GATE_REGRESSED);
        assertTrue(v.line().startsWith("FAIL: doctor SOCKET-IFNAME-NO-MATCH: "), v.line());
        assertTrue(v.line().endsWith(" (and 4 more: doctor SHM-SMALL; doctor SOCKET-DEFAULT-SLOW-NIC; the sweep's path"
                + " verdict: degraded; the gate: 2 sizes regressed)"), v.line());
        assertFalse(v.line().contains("the sweep did not run"), v.line());
        assertEquals(ExitCode.ENVIRONMENT, v.exitCode());
    }

    @Test
    void theSweepAndTheGateAloneKeepTheirWording() {
        assertEquals("DEGRADED: socket where RDMA is present", Preflight.decide(List.of(), new Preflight.Sweep(6,
                "socket where RDMA is present"), GATE_PASS).line());
        assertEquals("DEGRADED: the path verdict is degraded", Preflight.decide(null, new Preflight.Sweep(6, null), null).line());
        Preflight.Verdict g = Preflight.decide(null, OK, GATE_REGRESSED);
        assertEquals("DEGRADED: " + GATE_REGRESSED.line(), g.line());
        Preflight.Verdict refused = Preflight.decide(null, new Preflight.Sweep(2, "unknown collective 'x'"), null);
        assertEquals("FAIL: the sweep was refused (exit 2): unknown collective 'x'", refused.line());
        assertEquals(ExitCode.USAGE, refused.exitCode());
        assertEquals(ExitCode.RUN_FAILED, Preflight.decide(null, new Preflight.Sweep(4, null), null).exitCode());
        assertEquals(ExitCode.ENVIRONMENT, Preflight.decide(null, new Preflight.Sweep(3, null), null).exitCode());
    }

    @Test
    void aCurveErrorOrAWorsePathIsNamedInTheBrief() {
        Preflight.GateStep curve = new Preflight.GateStep(GateReport.Verdict.DEGRADED, "DEGRADED: busbw stalls at the"
                + " socket floor", 0, 1, List.of("CURVE-SOCKET-FLOOR"));
        assertEquals("DEGRADED: " + SLOW_NIC + " (and the gate: a worse path at 1 size, the curve check's"
                + " CURVE-SOCKET-FLOOR)", Preflight.decide(List.of(DEGRADING), OK, curve).line());
    }

    @Test
    void onlyASingleProcessSkipsTheSweepOnADoctorFailure() {
        assertTrue(Preflight.skipSweep(List.of(NO_MATCH), 1));
        assertFalse(Preflight.skipSweep(List.of(NO_MATCH), 2), "a rank with peers joins the sweep");
        assertFalse(Preflight.skipSweep(List.of(DEGRADING), 1), "a degraded path is measured, not skipped");
        assertFalse(Preflight.skipSweep(List.of(WARN), 1));
        assertFalse(Preflight.skipSweep(null, 1), "--no-doctor");
    }

    @Test
    void aMultiProcessDoctorFailureStillFailsAfterTheSweep() {
        Preflight.Verdict v = Preflight.decide(List.of(NO_MATCH), OK, GATE_PASS);
        assertEquals(ExitCode.ENVIRONMENT, v.exitCode());
        assertEquals("FAIL: doctor SOCKET-IFNAME-NO-MATCH: NCCL_SOCKET_IFNAME=ib9 matches none of the interfaces here"
                + " (eth0, rdma0); fix: export NCCL_SOCKET_IFNAME=rdma0", v.line());
    }
}
