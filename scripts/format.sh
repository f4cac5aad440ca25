#!/usr/bin/env bash
# Formats gpulab's C++ and CUDA sources with clang-format (.clang-format), or
# with --check says which files differ and fails (the `format` test).
# The style is pinned to clang-format 14 (Debian 12's): other versions format
# some constructs differently, so --check says SKIPPED under them.
set -euo pipefail
cd "$(dirname "$0")/.."
cf="${CLANG_FORMAT:-clang-format}"
if ! command -v "$cf" >/dev/null 2>&1; then
  echo "gpulab format: SKIPPED: clang-format is not installed (scripts/setup.sh --tests installs it)"
  exit 77
fi
major="$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')"
if [ "${1:-}" = "--check" ] && [ "$major" != "14" ]; then
  echo "gpulab format: SKIPPED: the style is checked with clang-format 14, this is $major"
  exit 77
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')
else
  mapfile -t files < <(find bindings cmake interpreter plot tensor tests bench -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' | sort)
fi
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    "$cf" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "gpulab format: ${#bad[@]} of ${#files[@]} files differ from .clang-format (scripts/format.sh fixes them):"
    printf '  %s\n' "${bad[@]}"
    exit 1
  fi
  echo "gpulab format: ${#files[@]} files match .clang-format"
else
  "$cf" -i "${files[@]}"
  echo "gpulab format: formatted ${#files[@]} files"
fi
