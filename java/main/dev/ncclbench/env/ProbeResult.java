package dev.ncclbench.env;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.internal.jni.NcclResult;
import dev.ncclbench.netif.InterfaceAdvice;

import java.util.List;

/**
 * What the real libnccl.so.2 said in a child process: its version, whether ncclGetUniqueId worked, and
 * the bootstrap interface it chose (from its own INFO log).
 *
 * @param loaded             whether libnccl.so.2 could be dlopen()ed
 * @param library            the file asked for; {@code loadedPath} is what the dynamic loader opened
 * @param version            ncclGetVersion's code (23007), 0 when unknown
 * @param uniqueIdStatus     ncclGetUniqueId's ncclResult_t
 * @param errorString        ncclGetErrorString of that status
 * @param lastError          ncclGetLastError(NULL)
 * @param bootstrapInterface the interface NCCL will bootstrap on ("eth0"), null when none was chosen
 * @param bootstrapAddress   its address as NCCL printed it ("10.0.0.1<0>")
 * @param warnings           NCCL's WARN messages, in order
 * @param problem            why the probe itself could not run (no probe library, child crashed), or null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ProbeResult(boolean loaded, String library, String loadedPath, String dlError, int version,
                          int uniqueIdStatus, String errorString, String lastError, String bootstrapInterface,
                          String bootstrapAddress, List<String> warnings, String logFile, String problem) {

    /** `probe --json`: this result under the envelope. */
    public Document document() {
        return new Document(Document.KIND, Document.SCHEMA_VERSION, this);
    }

    /** `probe --json`. 1: the first version with an envelope; keys were camelCase before (loadedPath, ...). */
    @JsonPropertyOrder({"kind", "schema_version"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, @JsonUnwrapped ProbeResult probe) {
        public static final String KIND = "ncclbench.probe";
        public static final int SCHEMA_VERSION = 1;
    }

    public String versionString() {
        return version <= 0 ? null : NcclProbe.versionString(version);
    }

    public NcclResult result() {
        return NcclResult.of(uniqueIdStatus);
    }

    /** ncclGetUniqueId's status by its name in nccl.h ("ncclSystemError"), for callers kept off internal (cli). */
    public String resultName() {
        return result().cName;
    }

    /** NCCL loaded and ncclGetUniqueId failed: a bootstrap that would fail in every rank. */
    /** "NCCL cannot bootstrap: ..." with what to change, judged with this process's NCCL_SOCKET_IFNAME. */
    public String bootstrapFailure(String socketIfname) {
        return "NCCL cannot bootstrap: \"" + ncclSentence() + "\" (" + resultName() + "); "
                + InterfaceAdvice.bootstrapRemedy(socketIfname);
    }

    public boolean bootstrapFailed() {
        return problem == null && loaded && uniqueIdStatus != 0;
    }

    public boolean ok() {
        return problem == null && loaded && uniqueIdStatus == 0;
    }

    /** NCCL's own sentence for the failure: the first WARN, else ncclGetLastError, else the error string. */
    public String ncclSentence() {
        if (!warnings.isEmpty()) {
            return warnings.get(0);
        }
        if (lastError != null && !lastError.isBlank()) {
            return lastError;
        }
        return errorString;
    }
}
