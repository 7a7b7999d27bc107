#!/usr/bin/env bash
# package.sh [--from BUILD_DIR] [OUTDIR [VERSION]]: builds SonoLink (build.sh, the default preset)
# and its Debian package, sonolink_<version>_amd64.deb, into OUTDIR (default:
# build/default/packages), made by CPack from `cmake --install` (cmake/SonolinkPackage.cmake):
# binaries stripped, runtime dependencies from dpkg-shlibdeps. --from packages a tree already
# built (the tests), and builds nothing. VERSION relabels the same build (the upgrade test makes
# its "previous" package so). Install with `sudo apt install ./sonolink_<version>_amd64.deb`.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=
if [ "${1:-}" = "--from" ]; then build=$2; shift 2; fi
out=${1:-${build:-$root/build/default}/packages}
version=${2:-}
if [ -z "$build" ]; then
  "$root/installer/build.sh" default
  build=$root/build/default
fi
# --from: what is built is packaged as it is (the tests run beside others that use its binaries).
for made in app/sonolink app/sonolink-cli app/sonolink-fe-sim package/changelog.gz; do
  [ -e "$build/$made" ] || { echo "package.sh: $build/$made is not built (cmake --build $build)" >&2; exit 1; }
done
args=(-G DEB -B "$out" --config "$build/CPackConfig.cmake")
if [ -n "$version" ]; then
  args+=(-D "CPACK_PACKAGE_VERSION=$version" -D "CPACK_PACKAGE_FILE_NAME=sonolink_${version}_amd64")
fi
mkdir -p "$out"
cpack "${args[@]}" > "$out/cpack.log" 2>&1 || { cat "$out/cpack.log" >&2; exit 1; }
rm -rf "$out/_CPack_Packages"
grep -o '/[^ ]*\.deb' "$out/cpack.log" | tail -n 1
