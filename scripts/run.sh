#!/usr/bin/env bash
# Installs what is missing, builds, and starts gpulab (arguments go to gpulab).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
exec build/gpulab "$@"
