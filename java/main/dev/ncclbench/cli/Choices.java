package dev.ncclbench.cli;

import dev.ncclbench.backend.Backends;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.fleet.Survey;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The flags that take one of a few names. Each converter accepts the names users type (nccl-tests' "sum", "float",
 * and its aliases "fp16", "bf16"...) and the candidates are what --help shows through ${COMPLETION-CANDIDATES}; a
 * name not in the list is picocli's one usage line and exit 2.
 */
final class Choices {
    private Choices() {
    }

    /** --socket-algo: the socket backend's all_reduce algorithm (RunSpec keeps the name). */
    enum SocketAlgo { auto, ring, rd, rabenseifner }

    /** --cpu-bind: each rank's thread on a core of its own, or left to the scheduler. */
    enum CpuBind { core, none }

    private static TypeConversionException notOneOf(String value, Iterable<String> known) {
        List<String> names = new ArrayList<>();
        known.forEach(names::add);
        return new TypeConversionException("expected one of " + names + " but was '" + value + "'");
    }

    /** nccl-tests' -o names in its order (test_opnames of common.cu): mulsum is PreMulSum, which no backend here runs. */
    static final List<String> NCCL_TESTS_OPS = List.of("sum", "prod", "max", "min", "avg", "mulsum");

    /** -o: nccl-tests' operator names, mulsum, and all (every one, in nccl-tests' order). */
    static final class Op implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String k = value.trim().toLowerCase(Locale.ROOT);
            ReduceOp op = ReduceOp.parse(k);
            if (op != null) {
                return op.label();
            }
            if (k.equals("all") || NCCL_TESTS_OPS.contains(k)) {
                return k;
            }
            throw notOneOf(value, new OpNames());
        }
    }

    static final class OpNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new ArrayList<>(NCCL_TESTS_OPS);
            names.add("all");
            return names.iterator();
        }
    }

    /** -d: nccl-tests' type names, its aliases, and all (every type, in nccl-tests' order). */
    static final class Type implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (value.trim().equalsIgnoreCase("all")) {
                return "all";
            }
            DataType t = DataType.parse(value);
            if (t == null) {
                throw notOneOf(value, new TypeNames());
            }
            return t.label();
        }
    }

    static final class TypeNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new ArrayList<>();
            Arrays.stream(DataType.values()).map(DataType::label).forEach(names::add);
            names.add("all");
            return names.iterator();
        }
    }

    /**
     * --backend: auto or a registered backend's name. The list comes from {@link Backends}, not a Java enum, so a
     * backend added there is a choice here without touching the CLI.
     */
    static final class Backend implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String name = value.trim().toLowerCase(Locale.ROOT);
            if (!name.equals("auto") && Backends.byName(name) == null) {
                throw notOneOf(value, new BackendNames());
            }
            return name;
        }
    }

    /** --collective: every collective of the registry, in its order, then all. */
    static final class CollectiveNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new ArrayList<>(Collectives.names());
            names.add("all");
            return names.iterator();
        }
    }

    static final class BackendNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new ArrayList<>(List.of("auto"));
            names.addAll(Backends.names());
            return names.iterator();
        }
    }

    /** --survey: fleet's first pass. */
    static final class SurveyChoice implements ITypeConverter<Survey> {
        @Override
        public Survey convert(String value) {
            Survey s = Survey.parse(value.trim().toLowerCase(Locale.ROOT));
            if (s == null) {
                throw notOneOf(value, new SurveyNames());
            }
            return s;
        }
    }

    static final class SurveyNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Survey.values()).map(s -> s.label).iterator();
        }
    }

    /** --fail-on: warn (or warning) and error. */
    static final class FailOnChoice implements ITypeConverter<FailOn> {
        @Override
        public FailOn convert(String value) {
            try {
                return FailOn.parse(value);
            } catch (IllegalArgumentException e) {
                throw notOneOf(value, new FailOnNames());
            }
        }
    }

    static final class FailOnNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("warn", "error").iterator();
        }
    }
}
