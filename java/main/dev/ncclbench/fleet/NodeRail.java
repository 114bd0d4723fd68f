package dev.ncclbench.fleet;

/**
 * One rail of a node as the node reported it when it joined: the NIC that carries it and the interface a socket binds
 * to for it. Rail N is the node's Nth rail in the order its source gives (--rails' order; doctor's rail table: the Nth
 * GPU in PCI bus order), so rail 3 of one node meets rail 3 of another.
 *
 * @param nic     what the verdicts name: NCCL's NIC name ("mlx5_3") or, for sockets, the interface ("eth3")
 * @param ifname  the interface the socket backend binds to for this rail
 * @param address its IPv4 address as the node saw it (null when it has none), for the catalog's site lines
 * @param down    why the rail cannot carry traffic ("eth3 is down"), or null when it can
 */
public record NodeRail(String nic, String ifname, String address, String down) {
    /** The most rails a node may report: a hello stays well under its 32 KiB. */
    static final int MAX_RAILS = 64;

    /** A NIC or interface name a verdict, the JSON and the HTML can carry as it is. */
    static boolean isName(String s) {
        return s != null && s.matches("[A-Za-z0-9_.:@+-]{1,64}");
    }

    /**
     * Whether rank 0 can carry this report as it is: names of NIC and interface, an IPv4 literal (never a name to
     * resolve), and a one-line reason of reasonable length.
     */
    boolean sayable() {
        return isName(nic) && isName(ifname) && (address == null || address.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}"))
                && (down == null || down.length() <= 200 && down.chars().noneMatch(Character::isISOControl));
    }

    public boolean up() {
        return down == null;
    }

    /** "eth3" or "mlx5_3 (ib0)": the NIC, and the interface where it has another name. */
    public String label() {
        return ifname == null || ifname.equals(nic) ? nic : nic + " (" + ifname + ")";
    }
}
