#!/usr/bin/env bash
# Installs what gpulab needs to build, from Debian packages, if missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config liblua5.4-dev doctest-dev libopenblas-dev libedit-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "gpulab setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
