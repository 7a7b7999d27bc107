#!/usr/bin/env bash
# install-deps.sh, run again on a machine where it already ran, must change nothing:
# same installed packages (name and version), same Qwt install, and it must say so.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ "$(id -u)" -ne 0 ] && ! sudo -n true 2>/dev/null; then
  echo "SKIP: needs root or passwordless sudo to run the installer"; exit 77
fi
snapshot() {
  dpkg-query -W -f='${Package} ${Version} ${db:Status-Status}\n' | sort | sha256sum
  find /opt/sonolink -type f -printf '%P %s %T@\n' 2>/dev/null | sort | sha256sum
}
before=$(snapshot)
out=$("$root/installer/install-deps.sh" 2>&1)
after=$(snapshot)
echo "$out"
grep -q "^install-deps: nothing to install" <<<"$out" || { echo "FAIL: second run did not report 'nothing to install'"; exit 1; }
[ "$before" = "$after" ] || { echo "FAIL: the second run changed installed packages or the Qwt install"; exit 1; }
"$root/installer/install-deps.sh" --check
echo "PASS: second run changed nothing"
