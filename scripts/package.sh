#!/usr/bin/env bash
# Builds the bundle for machines with no Java (GPU nodes, the OCI image of scripts/image.sh, the GPU self-test):
#   dist/ncclbench-VERSION-linux-x86_64.tar.gz, one folder ncclbench-VERSION/ holding
#     bin/ncclbench         the launcher: the bundle's own runtime and jar, wherever it lies (symlinks too)
#     runtime/              a jlink'd Java runtime with exactly the modules jdeps finds the fat jar using
#     lib/ncclbench.jar     the fat jar
#     scripts/              launch/ (sbatch, Slurm prolog, mpirun hostfile, k8s), nccl-tests-names.sh, and
#                           ncclbench -> ../bin/ncclbench, so the launch scripts find it as in a checkout
#     results/baselines/fabric-catalog.txt
#     VERSIONS  README.md
# NCCL and CUDA are not in it: they come from the node (NCCL_HOME, LD_LIBRARY_PATH, ldconfig, PyTorch's wheels).
#   scripts/package.sh            needs a JDK 17+ (jlink, jdeps: $JAVA_HOME/bin, else PATH) and Maven when the jar
#                                 is missing or older than the sources (then mvn -B -q package -DskipTests)
# Prints the tarball's path last. Exit codes: 0 written; 3 a tool is missing or the build failed; 6 over 60 MiB.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
say() { echo "package: $*" >&2; }
die() { local code="$1"; shift; echo "package: $*" >&2; exit "$code"; }
limit=$((60 * 1024 * 1024))
[[ $# -eq 0 ]] || die 2 "takes no arguments (JAVA_HOME picks the JDK whose jlink builds the runtime)"

tool() {  # tool NAME -> its path in $JAVA_HOME/bin, else on PATH
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/$1" ]]; then echo "$JAVA_HOME/bin/$1"; else command -v "$1" || true; fi
}
jlink="$(tool jlink)"
jdeps="$(tool jdeps)"
[[ -n "$jlink" && -n "$jdeps" ]] || die 3 "jlink and jdeps not found: install a JDK 17 (apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"

# the jar: built when missing or older than the sources (the rule of scripts/ncclbench)
jar=target/ncclbench.jar
if [[ ! -f "$jar" || -n "$(find pom.xml java native cmake -newer "$jar" -type f -print -quit)" ]]; then
  command -v mvn >/dev/null || die 3 "$jar is missing or stale and Maven (mvn) is not installed to build it"
  say "building $jar (mvn -B -q package -DskipTests)"
  mvn -B -q -o package -DskipTests >&2 || mvn -B -q package -DskipTests >&2 || die 3 "mvn package failed (run it without -q to see why)"
fi
version="$(unzip -p "$jar" META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: *\([^[:space:]]*\).*/\1/p')"
[[ -n "$version" ]] || die 3 "$jar has no Implementation-Version in its manifest (pom.xml's shade transformer sets it)"

# the modules: what jdeps finds the fat jar (ours and every dependency shaded into it) using, never a list by hand.
# --ignore-missing-deps: what the jar refers to but does not hold is never loaded: xchart's PDF and GIF writers (left
# out in pom.xml), JavaCPP's slf4j logger and its Maven plugin (BuildMojo); .ci/bundle-test runs every command to prove it.
modules="$("$jdeps" --print-module-deps --ignore-missing-deps --multi-release 17 "$jar")" || die 3 "jdeps failed on $jar"
[[ "$modules" =~ ^[a-z.,]+$ ]] || die 3 "jdeps printed no module list: '$modules'"

stage="$(mktemp -d "${TMPDIR:-/tmp}/ncclbench-package.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
name="ncclbench-$version"
b="$stage/$name"
mkdir -p "$b/bin" "$b/lib" "$b/scripts" "$b/results/baselines"
say "jlink: $modules"
"$jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 \
  --output "$b/runtime" || die 3 "jlink failed"
cp "$jar" "$b/lib/ncclbench.jar"
install -m 755 scripts/bundle/ncclbench "$b/bin/ncclbench"
ln -s ../bin/ncclbench "$b/scripts/ncclbench"
install -m 755 scripts/nccl-tests-names.sh "$b/scripts/"
# the launch scripts as committed (git ls-files: nothing a local run left beside them)
git ls-files -z scripts/launch | xargs -0 -I{} cp --parents -p {} "$b/"
cp results/baselines/fabric-catalog.txt "$b/results/baselines/"
cp scripts/bundle/README.md "$b/README.md"

# what this bundle is: the runtime, the NCCL and CUDA headers the jar's bindings were generated from (the node's
# own NCCL and driver are what runs; ncclbench env shows them), and the libraries the runtime needs of the node
runtime_version="$("$b/runtime/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p')"
runtime_vendor="$("$b/runtime/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.vendor = //p')"
javap="$(tool javap)"
(cd "$stage" && unzip -qo "$root/$jar" org/bytedeco/cuda/global/nccl.class org/bytedeco/cuda/global/cudart.class)
nccl_h="$("$javap" -constants -cp "$stage" org.bytedeco.cuda.global.nccl \
  | awk '/ NCCL_(MAJOR|MINOR|PATCH) = / {gsub(";", ""); v[$5] = $7} END {print v["NCCL_MAJOR"] "." v["NCCL_MINOR"] "." v["NCCL_PATCH"]}')"
cuda_h="$("$javap" -constants -cp "$stage" org.bytedeco.cuda.global.cudart | awk '/ CUDART_VERSION = / {gsub(";", ""); v = $7} END {printf "%d.%d", v / 1000, (v % 1000) / 10}')"
if unzip -l "$jar" | grep -c 'ncclbench_kernels.fatbin' >/dev/null; then
  kernels="fatbin in the jar (data filled and checked on the GPU)"
else
  kernels="none: built without nvcc, the nccl backend fills and checks buffers through the host"
fi
# X11 (libawt_xawt, libjawt), sound (libjsound) and the splash screen come with java.desktop; a headless run never
# loads them
needs="$(find "$b/runtime" -name '*.so' ! -name libawt_xawt.so ! -name libjawt.so ! -name libjsound.so \
  ! -name libsplashscreen.so -exec ldd {} + 2>/dev/null | awk '$2 == "=>" && $3 !~ /runtime/ {print $1}' \
  | grep -v -E '^lib(jvm|java|jli|awt|net|nio|verify|zip|mlib_image)\.so$' | sort -u | tr '\n' ' ')"
glibc="$(objdump -T "$b/runtime/bin/java" "$b/runtime/lib/server/libjvm.so" 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -n 1)"
cat >"$b/VERSIONS" <<VERSIONS
ncclbench        $version (git $(git describe --always --dirty 2>/dev/null || echo unknown), built $(date -u +%Y-%m-%dT%H:%M:%SZ))
runtime          Java $runtime_version ($runtime_vendor), jlink'd with: $modules
nccl bindings    NCCL $nccl_h and CUDA runtime $cuda_h headers (JavaCPP org.bytedeco:cuda $(unzip -p "$jar" META-INF/maven/org.bytedeco/cuda/pom.properties 2>/dev/null | sed -n 's/^version=//p')); at run time the node's own libnccl.so.2 and driver
kernels          $kernels
node needs       ${glibc:-glibc} or newer; ${needs}(the charts of report/--html/--png/--svg also want fontconfig and one font, e.g. fonts-dejavu-core)
VERSIONS

mkdir -p dist
tarball="dist/$name-linux-x86_64.tar.gz"
# reproducible order and owners; times from the last commit
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$(git log -1 --format=%ct 2>/dev/null || date +%s)" \
  -C "$stage" -czf "$tarball.tmp" "$name"
mv "$tarball.tmp" "$tarball"
size=$(stat -c %s "$tarball")
say "runtime $(du -sh "$b/runtime" | cut -f1), jar $(du -sh "$b/lib/ncclbench.jar" | cut -f1); $tarball is $(awk "BEGIN{printf \"%.1f\", $size / 1048576}") MiB of 60 MiB"
sed 's/^/package:   /' "$b/VERSIONS" >&2
[[ $size -le $limit ]] || die 6 "$tarball is over 60 MiB"
echo "$tarball"
