#!/usr/bin/env bash
# Fetches the real NCCL (the pip wheel nvidia-nccl-cu13, as PyTorch users have it) into deps/ (git-ignored):
#   deps/wheels/nvidia_nccl_cu13-*.whl   the wheel, downloaded once
#   deps/nccl/lib/libnccl.so.2           what the probe tests and `ncclbench env` use
#   deps/nccl/include/nccl.h             when the wheel carries it
# Idempotent: does nothing when deps/nccl/lib/libnccl.so.2 is already there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
wheels="$root/deps/wheels"
dest="$root/deps/nccl"
if [[ -f "$dest/lib/libnccl.so.2" ]]; then
  echo "fetch-nccl: $dest/lib/libnccl.so.2 already present"
  exit 0
fi
mkdir -p "$wheels" "$dest/lib"
if ! ls "$wheels"/nvidia_nccl_cu13-*.whl >/dev/null 2>&1; then
  py="$(command -v python3 || command -v python || true)"
  if [[ -z "$py" ]]; then
    echo "fetch-nccl: python3 with pip is needed (apt-get install python3-pip)" >&2
    exit 3
  fi
  "$py" -m pip download --quiet --no-deps nvidia-nccl-cu13 -d "$wheels"
fi
whl="$(ls "$wheels"/nvidia_nccl_cu13-*.whl | sort | tail -n 1)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# A wheel is a zip; python's zipfile avoids needing unzip(1).
python3 - "$whl" "$tmp" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for n in z.namelist():
        if n.startswith("nvidia/nccl/"):
            z.extract(n, sys.argv[2])
PY
cp -a "$tmp"/nvidia/nccl/lib/. "$dest/lib/"
if [[ -d "$tmp/nvidia/nccl/include" ]]; then
  mkdir -p "$dest/include"
  cp -a "$tmp"/nvidia/nccl/include/. "$dest/include/"
fi
[[ -e "$dest/lib/libnccl.so.2" ]] || { echo "fetch-nccl: no libnccl.so.2 in $whl" >&2; exit 3; }
echo "fetch-nccl: $(basename "$whl") -> $dest/lib/libnccl.so.2"
