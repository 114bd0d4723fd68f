package dev.ncclbench.fleet;

import dev.ncclbench.rendezvous.JobSecret;

/**
 * Whether a search may name nodes to drain: only when only the job's own processes could join it. Without a secret any
 * process that knows the job id could join as a node and report whatever figures it likes, and the drain list would
 * take healthy nodes out of service; so an unauthenticated search writes no drain list unless the operator says
 * --allow-unauthenticated. The verdicts are printed either way.
 *
 * @param authenticated        the rendezvous was authenticated (JobSecret)
 * @param allowUnauthenticated --allow-unauthenticated
 */
record DrainPolicy(boolean authenticated, boolean allowUnauthenticated) {
    /** Whether the drain list is written. */
    boolean writes() {
        return authenticated || allowUnauthenticated;
    }

    /** The header's line, or null when the search was authenticated. */
    String headerLine() {
        if (authenticated) {
            return null;
        }
        return JobSecret.NOT_AUTHENTICATED + (allowUnauthenticated ? " (drain list written: --allow-unauthenticated)"
                : "; no drain list is written on an unauthenticated search unless --allow-unauthenticated is given");
    }

    /** The JSON's account: whether the search was authenticated, and the drain list withheld when it is. */
    FleetJson.Document into(FleetJson.Document json) {
        return json.withDrainAccount(authenticated, writes() ? null : JobSecret.NOT_AUTHENTICATED);
    }
}
