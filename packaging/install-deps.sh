#!/usr/bin/env bash
# Installs the Debian 12 packages GPU Workbench needs to build, test and run.
# Idempotent: packages already present are left alone and nothing is downloaded
# when everything is installed. Runs as root, or through sudo when it is not.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev qt6-tools-dev qt6-l10n-tools
  libqt6sql6-sqlite libqt6svg6 libgl-dev libxkbcommon-dev
  libqcustomplot-dev libqcustomplot2.1-qt6
  nlohmann-json3-dev libfmt-dev libsqlite3-dev libbenchmark-dev libcsv-dev libssl-dev
  libxlsxwriter-dev unzip poppler-utils python3-jsonschema
  clang libclang-rt-14-dev
  xvfb xauth
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "install-deps: not root and no sudo; install these packages: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
