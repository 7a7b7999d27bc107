#!/usr/bin/env bash
# build.sh [PRESET]: installs whatever is missing (install-deps.sh), then configures and
# builds SonoLink with the given CMake preset (default: "default", into build/default).
# Incremental: an unchanged tree rebuilds nothing; ccache serves fresh clones.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
preset=${1:-default}
"$root/installer/install-deps.sh"
cd "$root"
if [ ! -f "build/$preset/build.ninja" ]; then
  cmake --preset "$preset"
fi
cmake --build --preset "$preset"
