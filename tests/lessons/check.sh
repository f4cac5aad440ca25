#!/usr/bin/env bash
# Usage: check.sh GPULAB NAME
# Runs lesson NAME the way a learner without a GPU would (seed 0, plain text,
# the virtual GPUs its header asks for with "-- needs: N gpus", else one),
# the GPUs emulated in host memory even on a machine with a real one,
# masks run-dependent timings and compares with the golden transcript NAME.out.
# The devices are given with --virtual-gpus, so the runner's note about
# turning them on is not part of the transcript.
# With UPDATE=1 it (re)writes NAME.out instead; read the result before keeping it.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 GPULAB NAME" >&2
  exit 2
fi
gpulab=$1
name=${2%.lua}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lessons=$(cd "$here/../../lessons" && pwd)
golden="$here/$name.out"
update=${UPDATE:-0}
if [ "$update" != 1 ] && [ ! -f "$golden" ]; then
  echo "no golden transcript $golden" >&2
  exit 2
fi

. "$here/mask.sh"

gpus=1
if [ -f "$lessons/$name.lua" ]; then
  declared=$(head -n 5 "$lessons/$name.lua" | sed -nE 's/^-- needs: *([0-9]+) gpus? *$/\1/p' | head -n 1)
  if [ -n "$declared" ]; then gpus=$declared; fi
fi

# GPULAB_EMULATE_GPUS: the transcripts hold the emulated devices' names and
# random numbers, also where a real GPU exists. GPULAB_QUICK=1: the lessons
# that train on Fashion-MNIST take a slice of it for a few epochs (d2l.quick()).
# OMP_NUM_THREADS=1: oneDNN splits a convolution's reductions by the threads
# it is given, and gpulab gives fewer on a loaded machine (Note [Threads that
# pay]), so a ResNet's two quick epochs printed other losses beside a busy
# neighbour (loss 1.511 for 1.474) and would on a machine of more cores; one
# thread gives the same digits everywhere.
actual=$(GPULAB_LESSONS="$lessons" NO_COLOR=1 GPULAB_EMULATE_GPUS=1 GPULAB_QUICK=1 OMP_NUM_THREADS=1 \
  "$gpulab" --virtual-gpus "$gpus" --seed 0 lesson "$name" 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
  echo "lesson $name exited with status $rc" >&2
fi
if [ "$update" = 1 ]; then
  printf '%s\n' "$actual" | mask >"$golden"
  echo "wrote $golden"
  exit $rc
fi
if ! diff -u "$golden" <(printf '%s\n' "$actual" | mask); then
  echo "lesson $name: output differs from $golden" >&2
  exit 1
fi
exit $rc
