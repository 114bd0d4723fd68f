package dev.ncclbench.doctor.snapshot;

/** A PCI bridge whose ACS control has redirect flags on, as lspci -vvv prints it ("ReqRedir+ CmpltRedir+"). */
public record AcsBridge(String device, String flags) {
}
