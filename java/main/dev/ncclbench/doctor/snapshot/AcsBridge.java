package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** A PCI bridge whose ACS control has redirect flags on, as lspci -vvv prints it ("ReqRedir+ CmpltRedir+"). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record AcsBridge(String device, String flags) {
}
