package dev.ncclbench.fleet;

import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.diagnosis.RouteOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What fleet judges against from the fabric catalog, read once: --fabric's healthy minimum (the pairs' floor) and its
 * words, and with --rails the site lines that give each rail its line rate (with or without --fabric).
 *
 * @param floor       --fabric's healthy minimum in GB/s, or empty
 * @param floorSource the floor in words ("ib-ndr's healthy minimum 40.00 GB/s (catalog)"), or null
 * @param sites       the catalog's site lines; empty without --rails
 */
public record FleetFabric(OptionalDouble floor, String floorSource, List<FabricCatalog.Site> sites) {
    public FleetFabric {
        sites = List.copyOf(sites);
    }

    /**
     * @param fabricId --fabric, or null
     * @param catalog  --catalog, or null; without --rails it needs --fabric (as sweep's)
     * @param rails    whether --rails was given: the site lines are read then
     */
    public static FleetFabric of(String fabricId, Path catalog, boolean rails) {
        if (!rails) {
            return of(RouteOptions.resolve(fabricId, catalog, null).fabric(), List.of());
        }
        RouteOptions.WithSites read = RouteOptions.withSites(fabricId, catalog);
        return of(read.fabric(), read.sites());
    }

    private static FleetFabric of(Optional<FabricEntry> fabric, List<FabricCatalog.Site> sites) {
        return new FleetFabric(fabric.isPresent() ? OptionalDouble.of(fabric.get().healthyMinGBps()) : OptionalDouble.empty(),
                fabric.map(f -> String.format(Locale.ROOT, "%s's healthy minimum %.2f GB/s (catalog)", f.id(),
                        f.healthyMinGBps())).orElse(null), sites);
    }
}
