package dev.ncclbench;

import dev.ncclbench.results.RecordedEnvironment;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One redactor: secret-looking names, and passwords inside URLs. */
class RedactorTest {
    @Test
    void secretNames() {
        for (String n : new String[] {"NCCLBENCH_TOKEN", "AWS_SECRET_ACCESS_KEY", "db_password", "MY_CREDENTIALS", "NCCL_PASSWD"}) {
            assertTrue(Redactor.secretName(n), n);
            assertEquals(Redactor.REDACTED, Redactor.value(n, "hunter2"), n);
        }
        assertFalse(Redactor.secretName("NCCL_SOCKET_IFNAME"));
        assertEquals("eth0", Redactor.value("NCCL_SOCKET_IFNAME", "eth0"));
    }

    @Test
    void passwordsInsideUrls() {
        assertEquals("http://user:<redacted>@host:8080/path", Redactor.urls("http://user:pass@host:8080/path"));
        assertEquals("proxy https://bob:<redacted>@p.example and s3://k:<redacted>@b",
                Redactor.urls("proxy https://bob:s3cr$t@p.example and s3://k:v@b"));
        assertEquals("http://host:8080/x and user@host", Redactor.urls("http://host:8080/x and user@host"));
        assertEquals("NCCL_NET_PLUGIN=http://u:<redacted>@h", "NCCL_NET_PLUGIN=" + Redactor.value("NCCL_NET_PLUGIN", "http://u:p@h"));
    }

    @Test
    void theRecordedEnvironmentKeepsWhatExplainsARunAndRedactsSecrets() {
        Map<String, String> rec = RecordedEnvironment.of(Map.of("NCCL_DEBUG", "INFO", "NCCLBENCH_TOKEN", "abc",
                "HOME", "/root", "MASTER_ADDR", "node0", "NCCL_IB_CREDENTIAL", "x", "CUDA_PROXY", "http://a:b@c"));
        assertEquals(Map.of("NCCL_DEBUG", "INFO", "NCCLBENCH_TOKEN", "<redacted>", "MASTER_ADDR", "node0",
                "NCCL_IB_CREDENTIAL", "<redacted>", "CUDA_PROXY", "http://a:<redacted>@c"), rec);
    }
}
