#!/usr/bin/env bash
# Builds the OCI image ncclbench:VERSION from Debian packages, with no registry pull: a minimal Debian 12 (bookworm)
# debootstrap'd from this machine's apt mirror, the bundle of scripts/package.sh in /opt/ncclbench, NCCL from the
# nvidia-nccl-cu13 wheel in /opt/nccl and the CUDA runtime from the nvidia-cuda-runtime 13.0 wheel in /opt/cuda
# (both on the loader's path through ldconfig; NCCL_HOME=/opt/nccl). The GPU driver is not in it: on a GPU node the
# NVIDIA container toolkit mounts it (NVIDIA_VISIBLE_DEVICES and NVIDIA_DRIVER_CAPABILITIES are set for it).
#   scripts/image.sh     root, with debootstrap, podman and python3 -m pip (apt-get install debootstrap podman runc)
# Writes:  podman's store: localhost/ncclbench:VERSION (entrypoint bin/ncclbench: podman run ... ncclbench:VERSION sweep)
#          dist/ncclbench-VERSION.oci.tar    an OCI archive: skopeo copy oci-archive:dist/... docker://REGISTRY/ncclbench:VERSION
# The wheels are taken from deps/wheels when there (scripts/fetch-nccl.sh puts the NCCL one there), else downloaded
# with pip download --no-deps. DEBIAN_MIRROR overrides the mirror (default: the first deb.debian.org-style URI of
# /etc/apt/sources.list*, else http://deb.debian.org/debian).
# Exit codes: 0 built; 2 bad argument; 3 a tool is missing, a download or the build failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
say() { echo "image: $*" >&2; }
die() { local code="$1"; shift; echo "image: $*" >&2; exit "$code"; }
[[ $# -eq 0 ]] || die 2 "takes no arguments"
[[ $(id -u) == 0 ]] || die 3 "debootstrap needs root"
for t in debootstrap podman python3; do
  command -v "$t" >/dev/null || die 3 "$t not found (apt-get install debootstrap podman runc python3-pip)"
done
t0=$SECONDS

tarball="$(scripts/package.sh | tail -n 1)" || die 3 "scripts/package.sh failed"
name="$(basename "$tarball" -linux-x86_64.tar.gz)"
version="${name#ncclbench-}"

wheel() {  # wheel GLOB PIP_SPEC -> a wheel in deps/wheels, downloaded when missing
  local w
  w="$(ls deps/wheels/$1 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -z "$w" ]]; then
    mkdir -p deps/wheels
    python3 -m pip download --quiet --no-deps "$2" -d deps/wheels >&2 || die 3 "pip download $2 failed"
    w="$(ls deps/wheels/$1 | sort -V | tail -n 1)"
  fi
  echo "$w"
}
nccl_whl="$(wheel 'nvidia_nccl_cu13-*.whl' nvidia-nccl-cu13)"
cudart_whl="$(wheel 'nvidia_cuda_runtime-13.0.*.whl' 'nvidia-cuda-runtime==13.0.*')"

mirror="${DEBIAN_MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null | grep -v '^\s*#' \
  | grep -o -E 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true)}"
mirror="${mirror:-http://deb.debian.org/debian}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ncclbench-image.XXXXXX")"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
# the libraries the bundle's runtime loads (VERSIONS: node needs), fontconfig and a font for the charts; what doctor
# reads the host with (ip, lspci); rdma-core's verbs and its providers (mlx5, efa, ...), without which NCCL in the
# container has no IB/RoCE and falls back to sockets; Open MPI and ssh for the MPI Operator's MPIJob
# (scripts/launch/k8s/sweep-mpijob.yaml: the launcher runs mpirun, the workers sshd)
include=libfreetype6,libharfbuzz0b,fontconfig,fonts-dejavu-core,libjpeg62-turbo,liblcms2-2,iproute2,pciutils,procps
include+=,libibverbs1,ibverbs-providers,librdmacm1,openmpi-bin,openssh-client,openssh-server
say "debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase --include="$include" bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -n 20 "$work/debootstrap.log" >&2; die 3 "debootstrap failed"; }
# what only apt and a person reading docs need; and sshd's host keys, which every container of the image would
# share: the MPIJob's workers make their own when they start (ssh-keygen -A)
rm -f "$rootfs"/etc/ssh/ssh_host_*
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old

mkdir -p "$rootfs/opt" "$rootfs/work"
tar -xzf "$tarball" -C "$rootfs/opt"
mv "$rootfs/opt/$name" "$rootfs/opt/ncclbench"
ln -s /opt/ncclbench/bin/ncclbench "$rootfs/usr/local/bin/ncclbench"
python3 - "$nccl_whl" "$cudart_whl" "$rootfs/opt" <<'PY'
import os, shutil, sys, zipfile
# nvidia/nccl/lib/* -> /opt/nccl/lib, nvidia/cu13/lib/* -> /opt/cuda/lib
for whl, src, dst in ((sys.argv[1], "nvidia/nccl/lib/", "nccl/lib"), (sys.argv[2], "nvidia/cu13/lib/", "cuda/lib")):
    with zipfile.ZipFile(whl) as z:
        for n in z.namelist():
            if n.startswith(src) and not n.endswith("/"):
                out = os.path.join(sys.argv[3], dst, n[len(src):])
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with z.open(n) as f, open(out, "wb") as g:
                    shutil.copyfileobj(f, g)
PY
[[ -f "$rootfs/opt/nccl/lib/libnccl.so.2" && -f "$rootfs/opt/cuda/lib/libcudart.so.13" ]] \
  || die 3 "the wheels gave no libnccl.so.2 or libcudart.so.13"
printf '/opt/nccl/lib\n/opt/cuda/lib\n' >"$rootfs/etc/ld.so.conf.d/ncclbench.conf"
chroot "$rootfs" /sbin/ldconfig
whl_version() { basename "$1" | cut -d- -f2; }
cat >>"$rootfs/opt/ncclbench/VERSIONS" <<VERSIONS
image            Debian $(cat "$rootfs/etc/debian_version") (debootstrap minbase from $mirror); NCCL $(whl_version "$nccl_whl") ($(basename "$nccl_whl")) in /opt/nccl; CUDA runtime $(whl_version "$cudart_whl") ($(basename "$cudart_whl")) in /opt/cuda; the driver from the NVIDIA container toolkit
VERSIONS

image="localhost/ncclbench:$version"
old="$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)"
say "podman import $image"
tar --numeric-owner -C "$rootfs" -c . | podman import \
  --change 'ENTRYPOINT ["/opt/ncclbench/bin/ncclbench"]' \
  --change 'CMD ["help"]' \
  --change 'WORKDIR /work' \
  --change 'ENV NCCL_HOME=/opt/nccl' \
  --change 'ENV NVIDIA_VISIBLE_DEVICES=all' \
  --change 'ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility' \
  --change "LABEL org.opencontainers.image.title=ncclbench" \
  --change "LABEL org.opencontainers.image.version=$version" \
  --message "ncclbench $version: scripts/image.sh" - "$image" >/dev/null || die 3 "podman import failed"
# the image this name held before, now untagged: gone unless a container still uses it
[[ -n "$old" && "$old" != "$(podman image inspect --format '{{.Id}}' "$image")" ]] && podman rmi "$old" >/dev/null 2>&1 || true
mkdir -p dist
oci="dist/$name.oci.tar"
rm -f "$oci"
podman save --format oci-archive -o "$oci" "$image" >/dev/null || die 3 "podman save failed"
say "$image ($(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1 / 1e6}')) and $oci ($(du -h "$oci" | cut -f1)) in $((SECONDS - t0)) s"
echo "$image"
