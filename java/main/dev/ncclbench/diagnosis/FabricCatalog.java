package dev.ncclbench.diagnosis;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.netif.InterfaceSelector;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Line rates and healthy busbw fractions per fabric, read from results/baselines/fabric-catalog.txt (format in
 * its header and docs/fabric-catalog.md). The jar carries a copy as its built-in default; a site passes its own.
 * Which one a command reads is {@link CatalogLocation}'s rule.
 */
public final class FabricCatalog {
    private static final String RESOURCE = "/dev/ncclbench/diagnosis/fabric-catalog.txt";
    private static final Set<String> KINDS = Set.of("ethernet", "ib", "roce", "nvlink", "pcie");
    /** The paths a catalog line may name: the route ids a healthy job on it reports. */
    private static final Set<String> PATHS = Set.of(RouteKind.SOCKET.id, RouteKind.RDMA.id, RouteKind.P2P.id,
            RouteKind.NVLS.id);

    private final Map<String, FabricEntry> entries;
    private final List<Site> sites;

    private FabricCatalog(Map<String, FabricEntry> entries, List<Site> sites) {
        this.entries = entries;
        this.sites = List.copyOf(sites);
    }

    /**
     * A site line, `site MATCH FABRIC`: links that MATCH names (see {@link #covers}) run at FABRIC's line rate. How a
     * site tells doctor and fleet --rails the rates of links that report none (veth) or a wrong one.
     */
    public record Site(String match, FabricEntry fabric, String source) {
        /** This line's {@link #covers(String, Collection, Collection)}. */
        public boolean covers(Collection<String> names, Collection<String> addresses) {
            return covers(match, names, addresses);
        }

        /**
         * Whether site MATCH names a link known by {@code names} (its interface and, for an RDMA NIC, its device and
         * port: "ibp154s0", "mlx5_3", "mlx5_3:1"; nulls skipped) or holding one of {@code addresses}: MATCH is one of
         * the names, a prefix ending in '*' of one ("mlx5_*"), or a subnet holding an address ("10.0.0.0/24"). The one
         * answer of every reader (doctor's link rates and rail table, fleet --rails), so a line means the same to each.
         */
        public static boolean covers(String match, Collection<String> names, Collection<String> addresses) {
            String prefix = match.endsWith("*") ? match.substring(0, match.length() - 1) : null;
            for (String n : names) {
                if (n != null && (n.equals(match) || prefix != null && n.startsWith(prefix))) {
                    return true;
                }
            }
            int slash = match.indexOf('/');
            if (slash < 0) {
                return false;
            }
            try {
                InetAddress net = InetAddress.getByName(match.substring(0, slash));
                int bits = Integer.parseInt(match.substring(slash + 1));
                for (String a : addresses) {
                    if (a != null && InterfaceSelector.sameSubnet(InetAddress.getByName(a), net, bits)) {
                        return true;
                    }
                }
            } catch (UnknownHostException | NumberFormatException e) {
                return false;
            }
            return false;
        }
    }

    /** The site section, in file order. */
    public List<Site> sites() {
        return sites;
    }

    public List<FabricEntry> entries() {
        return List.copyOf(entries.values());
    }

    public Optional<FabricEntry> get(String id) {
        return Optional.ofNullable(entries.get(id));
    }

    /** The catalog built into the jar. */
    public static FabricCatalog builtIn() {
        try (InputStream in = FabricCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + RESOURCE);
            }
            return parse(new InputStreamReader(in, StandardCharsets.UTF_8), "built-in fabric-catalog.txt");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A site's catalog; a missing file or a bad line is a usage error naming file:line. */
    public static FabricCatalog load(Path file) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r, file.toString());
        } catch (NoSuchFileException e) {
            throw NcclbenchException.usage("fabric catalog " + file + " does not exist");
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot read fabric catalog " + file + ": " + e.getMessage());
        }
    }

    public static FabricCatalog parse(Reader reader, String source) throws IOException {
        Map<String, FabricEntry> out = new LinkedHashMap<>();
        List<String[]> siteLines = new ArrayList<>();
        BufferedReader br = new BufferedReader(reader);
        String line;
        int no = 0;
        while ((line = br.readLine()) != null) {
            no++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+", 7);
            String where = source + ":" + no + ": ";
            if (f[0].equals("site")) {
                if (f.length < 3) {
                    throw NcclbenchException.usage(where + "expected 'site MATCH FABRIC', got '" + t + "'");
                }
                siteLines.add(new String[] {f[1], f[2], source + ":" + no});
                continue;
            }
            if (f.length < 6) {
                throw NcclbenchException.usage(where + "expected 'id kind line_GBps healthy_min healthy_max path"
                        + " [description]', got '" + t + "'");
            }
            if (!KINDS.contains(f[1])) {
                throw NcclbenchException.usage(where + "kind '" + f[1] + "' is not one of " + KINDS);
            }
            if (!PATHS.contains(f[5])) {
                throw NcclbenchException.usage(where + "path '" + f[5] + "' is not one of " + PATHS);
            }
            double rate = number(f[2], where, "line_GBps");
            double min = number(f[3], where, "healthy_min");
            double max = number(f[4], where, "healthy_max");
            if (rate <= 0 || min <= 0 || max < min || max > 2) {
                throw NcclbenchException.usage(where + "need line_GBps > 0 and 0 < healthy_min <= healthy_max <= 2");
            }
            if (out.containsKey(f[0])) {
                throw NcclbenchException.usage(where + "id '" + f[0] + "' appears twice");
            }
            out.put(f[0], new FabricEntry(f[0], f[1], rate, min, max, f[5], f.length > 6 ? f[6] : ""));
        }
        List<Site> sites = new ArrayList<>();
        for (String[] l : siteLines) {
            FabricEntry e = out.get(l[1]);
            if (e == null) {
                throw NcclbenchException.usage(l[2] + ": site " + l[0] + " names fabric '" + l[1] + "', which the catalog lacks");
            }
            sites.add(new Site(l[0], e, l[2]));
        }
        return new FabricCatalog(out, sites);
    }

    private static double number(String s, String where, String what) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw NcclbenchException.usage(where + what + " '" + s + "' is not a number (use a dot)");
        }
    }

    /** The inter-node fabrics whose healthy band contains busbw, best match first. */
    public List<FabricEntry> matching(double busbwGBps, boolean interNode) {
        List<FabricEntry> out = new ArrayList<>();
        for (FabricEntry e : entries.values()) {
            if (e.interNode() == interNode && busbwGBps >= e.healthyMinGBps()
                    && busbwGBps <= e.lineGBps() * e.healthyMax()) {
                out.add(e);
            }
        }
        return out;
    }
}
