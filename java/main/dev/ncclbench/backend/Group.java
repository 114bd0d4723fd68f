package dev.ncclbench.backend;

import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.NcclTestsSplit;
import dev.ncclbench.spec.RunSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The communicator one control plane joins: the whole job, or under nccl-tests' split ({@link NcclTestsSplit}) the
 * ranks of its colour, numbered in world order as MPI_Comm_split numbers them. The control plane stays the whole
 * job's: timings and #wrong are combined over every rank, as nccl-tests combines them over MPI_COMM_WORLD.
 *
 * @param color   nccl-tests' "Group" (0 without a split)
 * @param rank    this plane's rank in its group
 * @param members the world ranks (plane ranks) of the group, in order
 */
public record Group(int color, int rank, List<Integer> members) {

    public static Group of(RunSpec spec, ControlPlane plane) {
        NcclTestsSplit split = NcclTestsSplit.fromAssignment(spec.ncclTests().split());
        if (split == null) {
            List<Integer> all = new ArrayList<>();
            for (int r = 0; r < plane.nranks(); r++) {
                all.add(r);
            }
            return new Group(0, plane.rank(), all);
        }
        NcclTestsSplit.Groups groups = split.groups(plane.nranks());
        return new Group(groups.color(plane.rank()), groups.rankIn(plane.rank()), List.copyOf(groups.membersOf(plane.rank())));
    }

    public int size() {
        return members.size();
    }

    /** The world rank of the group's first member, which makes the group's NCCL unique id. */
    public int leader() {
        return members.get(0);
    }
}
