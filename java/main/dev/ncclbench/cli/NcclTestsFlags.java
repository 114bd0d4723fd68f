package dev.ncclbench.cli;

import dev.ncclbench.spec.RunSpec;
import picocli.CommandLine.Option;

import dev.ncclbench.collective.DataType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rest of nccl-tests' flags (src/common.cu of v2.19.6: its long options and getopt letters), with its
 * meanings; what a backend cannot do is refused by name before the run (backend/NcclTestsChecks). -d, -o and -r
 * with "all" are SweepCommand's.
 */
final class NcclTestsFlags {
    @Option(names = {"-p", "--parallel_init"}, paramLabel = "0|1", converter = Ranges.Switch.class,
            description = "nccl-tests' parallel communicator init (nccl backend; default: ${DEFAULT-VALUE})")
    int parallelInit;

    @Option(names = {"-y", "--stream_null"}, paramLabel = "0|1", converter = Ranges.Switch.class,
            description = "nccl-tests' calls on the NULL stream (nccl backend; default: ${DEFAULT-VALUE})")
    int streamNull;

    @Option(names = {"-C", "--report_cputime"}, paramLabel = "0|1", converter = Ranges.Switch.class,
            description = "The time column is the host's time to issue the calls, as nccl-tests' cputime"
            + " (default: ${DEFAULT-VALUE})")
    int reportCputime;

    @Option(names = {"-S", "--report_timestamps"}, paramLabel = "0|1", converter = Ranges.Switch.class,
            description = "A timestamp column after each row (default: ${DEFAULT-VALUE})")
    int reportTimestamps;

    @Option(names = {"-J", "--output_file"}, paramLabel = "FILE", description = "Also write nccl-tests' own JSON"
            + " (version 3, read by its tools/analyze_perf_json.py); FILE.0, FILE.1... when FILE exists, as nccl-tests")
    Path outputFile;

    @Option(names = {"-R", "--local_register"}, paramLabel = "0|1|2", converter = Ranges.Register.class,
            description = "Buffer registration: 1 local, 2 symmetric (nccl backend; default: ${DEFAULT-VALUE})")
    int localRegister;

    @Option(names = {"-x", "--cta_policy"}, paramLabel = "0|1|2", converter = Ranges.Register.class,
            description = "NCCL's CTA policy (nccl backend; default: not set)")
    Integer ctaPolicy;

    @Option(names = {"-D", "--device_implementation"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "nccl-tests' device-side implementation (needs a GPU and NCCL's device API; default: 0)")
    int deviceImplementation;

    @Option(names = {"-V", "--device_cta_count"}, paramLabel = "N", converter = Ranges.Positive.class,
            description = "CTAs of the device implementation (with -D; the version is --version)")
    Integer deviceCtaCount;

    @Option(names = {"-M", "--memory"}, paramLabel = "0|1", converter = Ranges.Switch.class,
            description = "nccl-tests' GPU memory report (nccl backend; default: ${DEFAULT-VALUE})")
    int memoryReport;

    @Option(names = {"-u", "--unalign"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "Misalign the buffers by N elements, as nccl-tests (nccl backend; default: ${DEFAULT-VALUE})")
    int unalign;

    @Option(names = {"-K", "--per_iter_skip"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "Leading iterations left out of the -I statistics (i_* columns), kept in -J's times_us"
            + " (default: ${DEFAULT-VALUE})")
    int perIterSkip;

    /** The flags in the spec, with -d and -o as swept (empty: the one type or op). */
    RunSpec.NcclTests toSpec(List<DataType> types, List<String> ops) {
        return new RunSpec.NcclTests(types, ops, new RunSpec.NcclTestsFlags(outputFile, reportCputime, reportTimestamps,
                perIterSkip, unalign, memoryReport, parallelInit, localRegister, gpuOnly()));
    }

    /** The flags given that only a GPU backend can honour, each as "-R 1 (local_register): what it does". */
    List<String> gpuOnly() {
        List<String> out = new ArrayList<>();
        if (parallelInit != 0) {
            out.add("-p " + parallelInit + " (parallel_init): threads initialise their NCCL communicators at once");
        }
        if (streamNull != 0) {
            out.add("-y " + streamNull + " (stream_null): NCCL calls on CUDA's NULL stream");
        }
        if (localRegister != 0) {
            out.add("-R " + localRegister + " (local_register): " + (localRegister == 1 ? "local" : "symmetric")
                    + " registration of the buffers with NCCL");
        }
        if (ctaPolicy != null) {
            out.add("-x " + ctaPolicy + " (cta_policy): NCCL's CTA policy");
        }
        if (deviceImplementation != 0) {
            out.add("-D " + deviceImplementation + " (device_implementation): collectives as CUDA kernels on NCCL's device API");
        }
        if (deviceCtaCount != null) {
            out.add("-V " + deviceCtaCount + " (device_cta_count): CTAs of the device implementation (-D)");
        }
        if (memoryReport != 0) {
            out.add("-M " + memoryReport + " (memory): the GPU memory report");
        }
        if (unalign != 0) {
            out.add("-u " + unalign + " (unalign): device buffers offset by " + unalign + " elements");
        }
        return out;
    }

    /**
     * For an option sweep does not know: whether nccl-tests has it. sweep takes every flag of nccl-tests v2.19.6, so
     * an unknown one is not nccl-tests' either; "" for other commands and other mistakes.
     */
    static String unknownNote(picocli.CommandLine.ParameterException ex) {
        if (!(ex instanceof picocli.CommandLine.UnmatchedArgumentException u) || !"sweep".equals(ex.getCommandLine().getCommandName())) {
            return "";
        }
        boolean option = u.getUnmatched().stream().anyMatch(a -> a.startsWith("-"));
        return option ? "; nccl-tests v2.19.6 has no such flag either" : "";
    }
}
