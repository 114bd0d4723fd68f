/*
 * ncclprobe: asks the real libnccl.so.2 what it will do, with no CUDA dependency.
 *
 * The library is dlopen()ed, never linked, so this works on a machine without a GPU or a driver
 * (ncclGetVersion is a constant; ncclGetUniqueId runs NCCL's real bootstrap interface selection and
 * makes no CUDA call in 2.17-2.30). Every symbol is looked up with dlsym, so a call that is newer than
 * the library found returns NCCLPROBE_NO_SYMBOL instead of killing the process.
 *
 * Plain C with status codes only: JavaCPP generates the JNI for this header, and a C++ exception
 * would reach Java as a bare RuntimeException.
 *
 * Return values: 0..8 are NCCL's ncclResult_t (ncclSuccess 0 ... ncclTimeout 8), negative values are
 * the probe's own codes below. NCCL reads its environment once per process and a failed init is
 * sticky (>= 2.22): compare configurations in separate processes.
 */
#ifndef NCCLPROBE_H
#define NCCLPROBE_H

#ifdef __cplusplus
extern "C" {
#endif

#define NCCLPROBE_OK 0
/* dlopen failed; ncclprobe_dl_error says why. */
#define NCCLPROBE_NOT_LOADED (-1)
/* The library has no such function (older NCCL). */
#define NCCLPROBE_NO_SYMBOL (-2)
/* A buffer or argument given to the probe was unusable. */
#define NCCLPROBE_BAD_ARGUMENT (-3)
/* setenv failed. */
#define NCCLPROBE_SETENV_FAILED (-4)

#define NCCLPROBE_UNIQUE_ID_BYTES 128

/* The version of this header's API, to catch a stale native build. */
int ncclprobe_api_version(void);

/* dlopen()s path (or "libnccl.so.2" from the loader's search path when path is NULL or empty), with
 * RTLD_NOW | RTLD_GLOBAL so that a later JavaCPP load of the same soname reuses it. Idempotent for
 * the same handle: a second call returns NCCLPROBE_OK without reopening. */
int ncclprobe_open(const char *path);

/* Whether a library is open: 1 or 0. */
int ncclprobe_is_open(void);

/* The last dlopen/dlsym error, copied into buf (always NUL-terminated). Returns its length. */
int ncclprobe_dl_error(char *buf, int len);

/* The absolute path the dynamic loader actually opened. Returns its length, or a negative code. */
int ncclprobe_loaded_path(char *buf, int len);

/* 1 when the open library exports name, 0 when not, NCCLPROBE_NOT_LOADED when none is open. */
int ncclprobe_has_symbol(const char *name);

/* ncclGetVersion: e.g. 23007 for 2.30.7. Returns the ncclResult_t. */
int ncclprobe_get_version(int *version);

/* ncclGetUniqueId into out (128 bytes). Returns the ncclResult_t: 5 (ncclInvalidUsage) on >= 2.24 when
 * no socket interface matches NCCL_SOCKET_IFNAME, 3 before. */
int ncclprobe_get_unique_id(unsigned char *out, int len);

/* ncclGetLastError(NULL) copied into buf (empty when none or before 2.13). Returns its length, or a
 * negative code. */
int ncclprobe_get_last_error(char *buf, int len);

/* ncclGetErrorString(code) copied into buf. Returns its length, or a negative code. */
int ncclprobe_get_error_string(int code, char *buf, int len);

/* setenv(name, value, overwrite) in the C environment NCCL reads, which a JVM cannot change. Call it
 * before NCCL's first call in this process. Returns NCCLPROBE_OK or NCCLPROBE_SETENV_FAILED. */
int ncclprobe_setenv(const char *name, const char *value, int overwrite);

/* The C environment's value of name copied into buf; returns its length, or -1 when unset. */
int ncclprobe_getenv(const char *name, char *buf, int len);

/* Test-only hook: returns code unchanged, so the Java mapping of every status code is tested without a GPU. */
int ncclprobe_test_raise(int code);

/* dlclose()s the library. NCCL's state is not reset by this: use one process per configuration. */
void ncclprobe_close(void);

#ifdef __cplusplus
}
#endif

#endif /* NCCLPROBE_H */
