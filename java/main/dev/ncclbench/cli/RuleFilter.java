package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.rules.RuleBooks;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * `--ignore ID`, one flag for every rule book (explain, doctor, compare, the gate's curve check, env): ids are unique
 * across the books, so an id is checked against all of them and each book drops the ids it has.
 */
final class RuleFilter {
    @Option(names = "--ignore", paramLabel = "ID", split = ",", description = "Leave out the findings of this rule:"
            + " they no longer count for the verdict or the exit code (repeatable or comma-separated; see ncclbench rules)")
    List<String> ignore = new ArrayList<>();

    /** The ids given; an id no book has is exit 2 before anything runs. */
    Set<String> ignored() {
        for (String id : ignore) {
            if (!RuleBooks.knows(id)) {
                throw NcclbenchException.usage("--ignore " + id + ": no rule has that id (see ncclbench rules)");
            }
        }
        return new LinkedHashSet<>(ignore);
    }

    /** The ids given that this book has: what a command that runs several books gives each one. */
    Set<String> ignoredIn(RuleBook<?> book) {
        Set<String> in = new LinkedHashSet<>();
        ignored().stream().filter(book::knows).forEach(in::add);
        return in;
    }
}
