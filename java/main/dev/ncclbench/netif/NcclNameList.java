package dev.ncclbench.netif;

import java.util.ArrayList;
import java.util.List;

/**
 * An NCCL name list (NCCL_SOCKET_IFNAME, NCCL_IB_HCA) as NCCL parses and matches it (src/misc/utils.cc,
 * parseStringList and matchIfList), implemented once for the interface choice and the RDMA device filter.
 *
 * <p>Comma-separated entries; a leading '^' excludes the entries, then a leading '=' makes them exact names, otherwise
 * each is a prefix (mlx5_1 also matches mlx5_10 to mlx5_19). An entry is {@code name[:port[:rail[:plane]]]}; the port
 * is read as C's atoi (":x" is port 0, which no device has) and an absent or empty port matches every port. Empty
 * entries are skipped; an empty list matches everything.
 *
 * @param exclude the list names what NCCL leaves out ('^')
 * @param exact   names must match whole ('=')
 */
public record NcclNameList(String value, boolean exclude, boolean exact, List<Entry> entries) {
    /** Any port, the value NCCL gives an interface or an entry without one. */
    public static final int ANY_PORT = -1;

    public NcclNameList {
        entries = List.copyOf(entries);
    }

    /** One entry: a name prefix (or exact name) and a port, {@link #ANY_PORT} when none was given. */
    public record Entry(String name, int port) {
    }

    public static NcclNameList parse(String value) {
        String rest = value == null ? "" : value;
        boolean exclude = rest.startsWith("^");
        if (exclude) {
            rest = rest.substring(1);
        }
        boolean exact = rest.startsWith("=");
        if (exact) {
            rest = rest.substring(1);
        }
        List<Entry> entries = new ArrayList<>();
        for (String part : rest.split(",")) {
            String[] fields = part.split(":", -1);
            if (fields[0].isEmpty()) {
                continue;
            }
            entries.add(new Entry(fields[0], fields.length > 1 && !fields[1].isEmpty() ? atoi(fields[1]) : ANY_PORT));
        }
        return new NcclNameList(value, exclude, exact, entries);
    }

    /** Whether an entry names this device (or interface) and port; an empty list names everything. */
    public boolean matches(String name, int port) {
        if (entries.isEmpty()) {
            return true;
        }
        for (Entry e : entries) {
            boolean n = exact ? name.equals(e.name()) : name.startsWith(e.name());
            boolean p = port == ANY_PORT || e.port() == ANY_PORT || port == e.port();
            if (n && p) {
                return true;
            }
        }
        return false;
    }

    /** Whether NCCL keeps this device and port: it matches, or it does not match an excluding list. */
    public boolean keeps(String name, int port) {
        return matches(name, port) != exclude;
    }

    /** C's atoi: optional blanks and sign, then digits; anything else reads as 0. */
    static int atoi(String s) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*([+-]?\\d{1,9})").matcher(s);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }
}
