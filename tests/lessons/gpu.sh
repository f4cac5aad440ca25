#!/usr/bin/env bash
# Every lesson on a real GPU, as a learner with one runs it: unsliced (a lesson
# written for more GPUs gets slices of it), and on two slices (--virtual-gpus
# 2), each against the transcript kept in tests/lessons/gpu/ (NAME.out and
# NAME.v2.out), masked as check.sh masks (timings) and, on a GPU, with the
# readings of nvidia-smi's table (memory, temperature, power, use) and the
# process memory sentences hidden too. Fashion-MNIST lessons run quick
# (GPULAB_QUICK=1). Without a real GPU: skipped (77).
# usage: tests/lessons/gpu.sh GPULAB     UPDATE=1 rewrites the transcripts
set -u
gpulab=${1:?usage: gpu.sh GPULAB}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lessons=$(cd "$here/../../lessons" && pwd)
kept=$here/gpu
. "$here/mask.sh"
real=$("$gpulab" -e 'io.write(torch.cuda.device_count() > 0 and not torch.cuda.is_emulated(0) and "yes" or "no")' 2>/dev/null)
if [ "$real" != yes ]; then
  echo "lessons on a GPU: SKIPPED: no real GPU here"
  exit 77
fi
gpu_mask() { mask | sed -E -e '/^\|/s/[0-9]+(\.[0-9]+)?/N/g' -e '/^\|/s/ +/ /g' -e 's/has [0-9.]+ [KMG]iB memory in use/has N memory in use/g'; }
mkdir -p "$kept"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run_one() {  # NAME SUFFIX FLAGS...
  local name=$1 suffix=$2
  shift 2
  GPULAB_LESSONS="$lessons" NO_COLOR=1 GPULAB_QUICK=1 "$gpulab" "$@" --seed 0 lesson "$name" 2>&1 | gpu_mask \
    >"$work/$name$suffix.out"
  echo "${PIPESTATUS[0]}" >"$work/$name$suffix.rc"
}
export -f run_one mask gpu_mask
export lessons gpulab work
names=$(cd "$lessons" && ls *.lua | sed 's/\.lua$//')
# several at a time: one GPU has room for all of them
printf '%s\n' $names | xargs -P 6 -I{} bash -c 'run_one {} "" && run_one {} .v2 --virtual-gpus 2'
failed=0
for f in "$work"/*.out; do
  base=$(basename "$f" .out)
  rc=$(cat "$work/$base.rc")
  [ "$rc" = 0 ] || { echo "lesson $base exited with status $rc"; failed=$((failed + 1)); }
  if [ "${UPDATE:-0}" = 1 ]; then
    cp "$f" "$kept/$base.out"
  elif [ ! -f "$kept/$base.out" ]; then
    echo "lesson $base: no kept transcript (UPDATE=1 writes it)"
    failed=$((failed + 1))
  elif ! diff -u "$kept/$base.out" "$f"; then
    echo "lesson $base: differs from tests/lessons/gpu/$base.out"
    failed=$((failed + 1))
  fi
done
echo "lessons on a GPU: $(ls "$work"/*.out | wc -l) runs, $failed failed"
[ $failed = 0 ]
