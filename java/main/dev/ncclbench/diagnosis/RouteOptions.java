package dev.ncclbench.diagnosis;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultFiles;
import dev.ncclbench.results.ResultRow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/** --fabric, --catalog and --socket-floor, turned into what the path verdict compares with. */
public final class RouteOptions {
    private RouteOptions() {
    }

    public static RouteInputs resolve(String fabricId, Path catalogFile, String socketFloor) {
        List<String> said = new ArrayList<>();
        Optional<FabricEntry> fabric = Optional.empty();
        if (fabricId != null) {
            fabric = Optional.of(entry(CatalogLocation.read(catalogFile), fabricId));
            said.add("fabric " + fabric.get().id());
        } else if (catalogFile != null) {
            throw NcclbenchException.usage("--catalog needs --fabric ID to say which of its fabrics this job uses");
        }
        OptionalDouble floor = OptionalDouble.empty();
        if (socketFloor != null) {
            floor = OptionalDouble.of(floorOf(socketFloor.trim()));
            said.add(String.format(Locale.ROOT, "socket floor %.3f GB/s", floor.getAsDouble()));
        }
        return new RouteInputs(fabric, floor, said.isEmpty() ? null : String.join("; ", said));
    }

    /**
     * --fabric's entry (if given) and the catalog's site lines, from one read of the catalog: fleet --rails rates each
     * rail by the site lines, so --catalog alone is enough there.
     */
    public record WithSites(Optional<FabricEntry> fabric, List<FabricCatalog.Site> sites) {
    }

    public static WithSites withSites(String fabricId, Path catalogFile) {
        FabricCatalog catalog = CatalogLocation.read(catalogFile);
        return new WithSites(fabricId == null ? Optional.empty() : Optional.of(entry(catalog, fabricId)), catalog.sites());
    }

    private static FabricEntry entry(FabricCatalog catalog, String fabricId) {
        Optional<FabricEntry> fabric = catalog.get(fabricId.trim());
        if (fabric.isEmpty()) {
            List<String> ids = new ArrayList<>();
            catalog.entries().forEach(e -> ids.add(e.id()));
            throw NcclbenchException.usage("unknown fabric '" + fabricId + "'; the catalog has: " + String.join(", ", ids));
        }
        return fabric.get();
    }

    /** A number in GB/s, or a socket run's result: the busbw of its largest size (best of both placements). */
    private static double floorOf(String value) {
        if (value.matches("[0-9]+(\\.[0-9]+)?")) {
            double v = Double.parseDouble(value);
            if (v <= 0) {
                throw NcclbenchException.usage("--socket-floor must be above 0 GB/s");
            }
            return v;
        }
        Path file = Path.of(value);
        if (!Files.isRegularFile(file)) {
            throw NcclbenchException.usage("--socket-floor: '" + value + "' is neither GB/s nor a result file");
        }
        ResultDocument doc;
        try {
            doc = ResultFiles.read(file);
        } catch (IOException | RuntimeException e) {
            throw NcclbenchException.usage("--socket-floor: cannot read " + file + ": " + e.getMessage());
        }
        if (!Backends.capabilitiesOf(doc.backend()).contains(Capability.SOCKET_INTERFACE)) {
            throw NcclbenchException.usage("--socket-floor: " + file + " is a " + doc.backend()
                    + " run, not a socket run");
        }
        ResultRow largest = null;
        for (ResultRow r : doc.rows()) {
            if (largest == null || r.sizeBytes() > largest.sizeBytes()) {
                largest = r;
            }
        }
        if (largest == null) {
            throw NcclbenchException.usage("--socket-floor: " + file + " has no rows");
        }
        return Math.max(largest.outOfPlace().busbw(), largest.inPlace().busbw());
    }
}
