/* ncclprobe-cli [libnccl.so.2]: the probe without Java. Prints key=value lines; exit status is the
 * ncclGetUniqueId result (0 ok, 5 no socket interface on NCCL >= 2.24), or 100 when NCCL cannot load. */
#include "ncclprobe.h"

#include <stdio.h>

int main(int argc, char **argv) {
    char buf[4096];
    unsigned char id[NCCLPROBE_UNIQUE_ID_BYTES];
    int version = 0;
    int rc = ncclprobe_open(argc > 1 ? argv[1] : NULL);
    if (rc != NCCLPROBE_OK) {
        ncclprobe_dl_error(buf, (int)sizeof buf);
        printf("loaded=false\nerror=%s\n", buf);
        return 100;
    }
    if (ncclprobe_loaded_path(buf, (int)sizeof buf) >= 0) {
        printf("path=%s\n", buf);
    }
    rc = ncclprobe_get_version(&version);
    printf("version_status=%d\nversion=%d\n", rc, version);
    rc = ncclprobe_get_unique_id(id, (int)sizeof id);
    printf("unique_id_status=%d\n", rc);
    ncclprobe_get_error_string(rc, buf, (int)sizeof buf);
    printf("error_string=%s\n", buf);
    ncclprobe_get_last_error(buf, (int)sizeof buf);
    printf("last_error=%s\n", buf);
    return rc;
}
