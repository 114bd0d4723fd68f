package dev.ncclbench.fleet;

import java.util.List;

/**
 * Every node's verdict, the links' (every measured link up to 64 nodes; above, those with a slow or failed result,
 * the rest being good), and what the evidence did not settle.
 *
 * @param linksMeasured how many distinct pairs ran
 */
public record Verdicts(List<NodeVerdict> nodes, List<LinkVerdict> links, List<String> undecided, int linksMeasured) {
    public Verdicts {
        nodes = List.copyOf(nodes);
        links = List.copyOf(links);
        undecided = List.copyOf(undecided);
    }

    public NodeVerdict node(int rank) {
        return nodes.get(rank);
    }

    public List<NodeVerdict> badNodes() {
        return nodes.stream().filter(NodeVerdict::bad).toList();
    }

    public List<LinkVerdict> badLinks() {
        return links.stream().filter(l -> l.status() == LinkVerdict.Status.BAD).toList();
    }

    /** Exit 6 territory: a node or a link is bad. */
    public boolean anyBad() {
        return !badNodes().isEmpty() || !badLinks().isEmpty();
    }
}
