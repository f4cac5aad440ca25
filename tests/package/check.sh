#!/usr/bin/env bash
# The Debian package, as a lab machine gets it: packs BUILD_DIR (already built;
# default build/) with CPack, unpacks the .deb with `dpkg -x` into a temporary
# root, and runs the unpacked gpulab there (--version, lessons, a lesson, doctor, with
# no GPULAB_LESSONS/GPULAB_DATA: the lookup relative to the binary must find
# its own share/gpulab); then lintian, which must report no errors (warnings
# are listed). About 25 s, most of it lintian. Says SKIPPED when a tool is missing.
# usage: tests/package/check.sh [BUILD_DIR]
set -u
BUILD=$(cd "${1:-build}" && pwd) || exit 1
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  if ! command -v $tool >/dev/null; then
    echo "package check SKIPPED: $tool is not installed (scripts/setup.sh installs it)"
    exit 0
  fi
done
[ -x "$BUILD/gpulab" ] || { echo "package check: $BUILD/gpulab is not built"; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-pkg.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failed=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; shift; printf '     %s\n' "$@"; failed=1; }

if ! (cd "$BUILD" && cpack -G DEB -B "$WORK/pkg") >"$WORK/cpack.log" 2>&1; then
  bad "cpack" "$(tail -20 "$WORK/cpack.log")"; exit 1
fi
deb=$(ls "$WORK"/pkg/gpulab_*.deb)
ok "cpack made $(basename "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
if [[ $depends == *liblua5.4-0* && $depends == *libopenblas0* && $depends != *cuda* && $depends != *cublas* ]]; then
  ok "Depends are Debian packages, none of CUDA: $depends"
else
  bad "Depends" "$depends"
fi

ROOT=$WORK/root
dpkg -x "$deb" "$ROOT"
G=$ROOT/usr/bin/gpulab
run() { env -u GPULAB_LESSONS -u GPULAB_DATA -u GPULAB_VIRTUAL_GPUS NO_COLOR=1 "$G" "$@" >"$WORK/out" 2>&1; }
for f in usr/share/man/man1/gpulab.1.gz usr/share/doc/gpulab/copyright usr/share/doc/gpulab/README.md \
         usr/share/gpulab/lessons/a1_summary.lua usr/share/gpulab/lessons/exercises; do
  [ -e "$ROOT/$f" ] || bad "packaged file $f" "missing"
done
if run --version && grep -q '^gpulab [0-9]' "$WORK/out" && grep -q '^BLAS: OpenBLAS' "$WORK/out"; then
  ok "gpulab --version: $(tr '\n' ';' <"$WORK/out")"
else
  bad "gpulab --version" "$(cat "$WORK/out")"
fi
if run lessons && grep -q 'a1_summary' "$WORK/out"; then ok "gpulab lessons"; else bad "gpulab lessons" "$(cat "$WORK/out")"; fi
# The error names the directory searched: the package's own, not the source tree's.
run lesson no_such_lesson
if grep -qF "in $ROOT/usr/share/gpulab/lessons " "$WORK/out"; then
  ok "lessons found at <exe>/../share/gpulab/lessons"
else
  bad "lesson lookup relative to the binary" "$(cat "$WORK/out")"
fi
if run lesson a1_summary --virtual-gpus 2 && [ -s "$WORK/out" ]; then
  ok "gpulab lesson a1_summary"
else
  bad "gpulab lesson a1_summary" "$(cat "$WORK/out")"
fi

if run doctor && grep -q '^Verdict: OK' "$WORK/out"; then
  ok "gpulab doctor: $(grep '^Verdict' "$WORK/out")"
else
  bad "gpulab doctor" "$(cat "$WORK/out")"
fi

if command -v lintian >/dev/null; then
  lintian --no-tag-display-limit "$deb" >"$WORK/lintian" 2>/dev/null
  if grep -q '^E:' "$WORK/lintian"; then
    bad "lintian: errors" "$(grep '^E:' "$WORK/lintian")"
  else
    ok "lintian: no errors ($(grep -c '^W:' "$WORK/lintian") warnings)"
  fi
  grep '^W:' "$WORK/lintian" | sed 's/^/     /'
else
  echo "SKIPPED lintian: not installed (scripts/setup.sh --tests installs it)"
fi
[ $failed = 0 ] && echo "package check passed" || echo "package check FAILED"
exit $failed
