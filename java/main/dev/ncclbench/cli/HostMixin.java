package dev.ncclbench.cli;

import dev.ncclbench.env.Host;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The host a command runs on (its environment and the libraries found from it), as {@link Main} built it: the root
 * command holds it and every command that needs it reaches it through this one mixin (picocli's root-held value,
 * {@code @Spec(MIXEE)} and the root's user object), never through a setter of its own. Mixed into a command, not
 * into another mixin: a nested mixin's root is its own spec.
 */
@Command
final class HostMixin {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    Host get() {
        if (!(mixee.root().userObject() instanceof RootCommand root)) {
            throw new IllegalStateException(mixee.name() + " was built outside ncclbench's root command: it has no host");
        }
        return root.host();
    }
}
