package dev.ncclbench.rendezvous;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the proof binds: the token to its job (one secret, two jobs, two tokens), the answer to its role (a store
 * hello's answer is no fleet join's) and to everything its hello says (a name changed on the way no longer proves).
 */
class JobProofTest {
    private static final String SECRET = "1b8e5c2f9a6d3e0b7c4f1a8d5e2b9c6f3a0d7e4b1c8f5a2d9e6b3c0f7a4d1e8b";

    private static boolean same(byte[] a, byte[] b) {
        return java.util.Arrays.equals(a, b);
    }

    @Test
    void oneSecretGivenToTwoJobsMakesTwoTokens() {
        byte[] job = JobProof.token(SECRET, "slurm", "4242.0", 16);
        assertArrayEquals(job, JobProof.token(SECRET, "slurm", "4242.0", 16), "every process of the job makes the same");
        assertFalse(same(job, JobProof.token(SECRET, "slurm", "4243.0", 16)), "another job id");
        assertFalse(same(job, JobProof.token(SECRET, "torchrun", "4242.0", 16)), "another launcher");
        assertFalse(same(job, JobProof.token(SECRET, "slurm", "4242.0", 8)), "another world size");
        assertFalse(same(job, JobProof.token(SECRET + "0", "slurm", "4242.0", 16)), "another secret");
        // no job id is a job id of its own, not a wildcard; and the fields cannot slide into each other
        assertFalse(same(JobProof.token(SECRET, "flags", null, 2), JobProof.token(SECRET, "flags", "x", 2)));
        assertFalse(same(JobProof.token(SECRET, "ab", "c", 2), JobProof.token(SECRET, "a", "bc", 2)));
        assertFalse(same(JobProof.id(job), JobProof.id(JobProof.token(SECRET, "slurm", "4243.0", 16))),
                "so another job's process names another job, and hears so");
    }

    @Test
    void anAnswerForOneRoleIsNoAnswerForTheOther() {
        byte[] token = JobProof.token(SECRET, "flags", null, 2);
        byte[] nonce = JobProof.nonce();
        byte[] name = "node-1".getBytes(StandardCharsets.UTF_8);
        byte[] flags = "-n 5".getBytes(StandardCharsets.UTF_8);
        byte[] join = JobProof.join(token, nonce, 1, 2, "node-1", "-n 5");
        // the same nonce, ranks and fields, in the store's role: another answer
        byte[] hello = JobProof.answer(token, JobProof.Role.STORE, nonce, JobProof.id(token), 1, 1, 2, name, flags);
        assertFalse(same(join, hello));
        assertTrue(JobProof.proves(token, nonce, 1, 2, "node-1", "-n 5", join));
        assertFalse(JobProof.proves(token, nonce, 1, 2, "node-1", "-n 5", hello));
    }

    @Test
    void theAnswerCoversWhatTheHelloSays() {
        byte[] token = JobProof.token(SECRET, "flags", null, 3);
        byte[] nonce = JobProof.nonce();
        byte[] join = JobProof.join(token, nonce, 1, 3, "node-1", null);
        assertTrue(JobProof.proves(token, nonce, 1, 3, "node-1", null, join));
        assertFalse(JobProof.proves(token, nonce, 1, 3, "gpu[100-163]", null, join), "a name changed on the way");
        assertFalse(JobProof.proves(token, nonce, 1, 3, "node-1", "-n 5", join), "flags added on the way");
        assertFalse(JobProof.proves(token, nonce, 2, 3, "node-1", null, join), "another rank");
        assertFalse(JobProof.proves(token, JobProof.nonce(), 1, 3, "node-1", null, join), "another connection's nonce");
        assertFalse(JobProof.proves(token, nonce, 1, 3, "node-1", null, null));
    }
}
