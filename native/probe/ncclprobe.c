/* See ncclprobe.h. Only libc and libdl: no CUDA, no NCCL headers. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ncclprobe.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#define NCCLPROBE_API 1

typedef int (*get_version_fn)(int *);
typedef int (*get_unique_id_fn)(void *);
typedef const char *(*get_last_error_fn)(void *);
typedef const char *(*get_error_string_fn)(int);

static void *handle;
static char dl_error[1024];

static int copy_out(const char *s, char *buf, int len) {
    size_t n;
    if (buf == NULL || len <= 0) {
        return NCCLPROBE_BAD_ARGUMENT;
    }
    if (s == NULL) {
        s = "";
    }
    n = strlen(s);
    if (n >= (size_t)len) {
        n = (size_t)len - 1;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    return (int)n;
}

static void remember_dl_error(void) {
    const char *e = dlerror();
    copy_out(e != NULL ? e : "unknown dynamic loader error", dl_error, (int)sizeof dl_error);
}

static void *symbol(const char *name) {
    if (handle == NULL) {
        return NULL;
    }
    dlerror();
    return dlsym(handle, name);
}

int ncclprobe_api_version(void) {
    return NCCLPROBE_API;
}

int ncclprobe_open(const char *path) {
    if (handle != NULL) {
        return NCCLPROBE_OK;
    }
    dl_error[0] = '\0';
    handle = dlopen(path != NULL && path[0] != '\0' ? path : "libnccl.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (handle == NULL) {
        remember_dl_error();
        return NCCLPROBE_NOT_LOADED;
    }
    return NCCLPROBE_OK;
}

int ncclprobe_is_open(void) {
    return handle != NULL;
}

int ncclprobe_dl_error(char *buf, int len) {
    return copy_out(dl_error, buf, len);
}

int ncclprobe_loaded_path(char *buf, int len) {
    struct link_map *map = NULL;
    if (handle == NULL) {
        return NCCLPROBE_NOT_LOADED;
    }
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) {
        remember_dl_error();
        return NCCLPROBE_NO_SYMBOL;
    }
    return copy_out(map->l_name, buf, len);
}

int ncclprobe_has_symbol(const char *name) {
    if (handle == NULL) {
        return NCCLPROBE_NOT_LOADED;
    }
    if (name == NULL) {
        return NCCLPROBE_BAD_ARGUMENT;
    }
    return symbol(name) != NULL;
}

int ncclprobe_get_version(int *version) {
    get_version_fn f;
    if (handle == NULL) {
        return NCCLPROBE_NOT_LOADED;
    }
    if (version == NULL) {
        return NCCLPROBE_BAD_ARGUMENT;
    }
    f = (get_version_fn)symbol("ncclGetVersion");
    if (f == NULL) {
        remember_dl_error();
        return NCCLPROBE_NO_SYMBOL;
    }
    return f(version);
}

int ncclprobe_get_unique_id(unsigned char *out, int len) {
    get_unique_id_fn f;
    if (handle == NULL) {
        return NCCLPROBE_NOT_LOADED;
    }
    if (out == NULL || len < NCCLPROBE_UNIQUE_ID_BYTES) {
        return NCCLPROBE_BAD_ARGUMENT;
    }
    f = (get_unique_id_fn)symbol("ncclGetUniqueId");
    if (f == NULL) {
        remember_dl_error();
        return NCCLPROBE_NO_SYMBOL;
    }
    memset(out, 0, (size_t)len);
    return f(out);
}

int ncclprobe_get_last_error(char *buf, int len) {
    get_last_error_fn f;
    if (handle == NULL) {
        return NCCLPROBE_NOT_LOADED;
    }
    f = (get_last_error_fn)symbol("ncclGetLastError"); /* NCCL >= 2.13 */
    if (f == NULL) {
        copy_out("", buf, len);
        return NCCLPROBE_NO_SYMBOL;
    }
    return copy_out(f(NULL), buf, len);
}

int ncclprobe_get_error_string(int code, char *buf, int len) {
    get_error_string_fn f;
    if (handle == NULL) {
        return NCCLPROBE_NOT_LOADED;
    }
    f = (get_error_string_fn)symbol("ncclGetErrorString");
    if (f == NULL) {
        copy_out("", buf, len);
        return NCCLPROBE_NO_SYMBOL;
    }
    return copy_out(f(code), buf, len);
}

int ncclprobe_setenv(const char *name, const char *value, int overwrite) {
    if (name == NULL || name[0] == '\0' || value == NULL) {
        return NCCLPROBE_BAD_ARGUMENT;
    }
    return setenv(name, value, overwrite) == 0 ? NCCLPROBE_OK : NCCLPROBE_SETENV_FAILED;
}

int ncclprobe_getenv(const char *name, char *buf, int len) {
    const char *v;
    if (name == NULL) {
        return NCCLPROBE_BAD_ARGUMENT;
    }
    v = getenv(name);
    if (v == NULL) {
        if (buf != NULL && len > 0) {
            buf[0] = '\0';
        }
        return -1;
    }
    return copy_out(v, buf, len);
}

int ncclprobe_test_raise(int code) {
    return code;
}

void ncclprobe_close(void) {
    if (handle != NULL) {
        dlclose(handle);
        handle = NULL;
    }
}
