#!/usr/bin/env bash
# Gathers the six libraries the GPU check build needs (fmt, spdlog, tl-expected, ISA-L,
# GoogleTest, Google Benchmark) as Debian packages unpacked under .devdeps/root, for a GPU host
# that has a CUDA toolkit, CMake and a compiler but none of our dependencies and no network. The
# folder travels with the working tree; tests/gpu/run-device-check.sh finds it there.
# Usage: installer/gather-device-deps.sh   (needs apt-get; downloads, installs nothing)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.devdeps"
packages=(libfmt-dev libfmt9 libspdlog-dev libspdlog1.10 libexpected-dev libisal-dev libisal2
          libgtest-dev libgmock-dev libbenchmark-dev libbenchmark1debian)
rm -rf "$out"
mkdir -p "$out/debs" "$out/root"
(cd "$out/debs" && apt-get download "${packages[@]}")
for deb in "$out"/debs/*.deb; do dpkg -x "$deb" "$out/root"; done
rm -rf "$out/debs" "$out/root/usr/share/doc" "$out/root/usr/src"
# Plain files only (symbolic links may not travel with the working tree).
while read -r link; do
  target=$(readlink "$link")
  [[ $target == /* ]] && target="$out/root$target" || target="$(dirname "$link")/$target"
  if [[ -e $target ]]; then cp -L --remove-destination "$target" "$link"; else rm "$link"; fi
done < <(find "$out/root" -type l)
du -sh "$out" | sed 's/^/gather-device-deps: /'
