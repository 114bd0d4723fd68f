package dev.ncclbench.results;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** The lines of a result journal after its header line: a row, or a verdict found later for earlier rows. */
final class Journal {
    private Journal() {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Entry(ResultRow row,
                 ResultRow verdictFor) {
    }

    /** Gives {@code diagnosed}'s verdict to every row of the same table line (repeats of a size share it). */
    static void applyVerdict(List<ResultRow> rows, ResultRow diagnosed) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).sameLine(diagnosed)) {
                rows.set(i, rows.get(i).withVerdict(diagnosed.verdict()));
            }
        }
    }
}
