#!/usr/bin/env bash
# torch.distributed over loopback with `gpulab run`: collectives (2 and 3
# ranks, CPU and virtual devices), DDP training (2 and 4 ranks), exercise
# 003_average_gradients' solution (2 ranks), the rendezvous's and gloo's
# timeout, the launcher's environment and output prefixes, and a failing or
# killed rank: the launcher exits non-zero in time, naming it, leaving no process.
# Usage: tests/dist/run.sh path/to/gpulab
set -u
G=$1
D=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

if ! "$G" -e 'os.exit(torch.distributed.is_gloo_available() and 0 or 1)'; then
  echo "skipped: gpulab was built without gloo (libgloo-dev)"
  "$G" -e 'torch.distributed.init_process_group{}' 2>&1 | grep -q "doesn't have Gloo built in" &&
    pass "without gloo, init_process_group says so" || bad "without gloo, init_process_group says so"
  exit $fail
fi

# NCCL, as far as a machine without a GPU can check it (tests/dist/nccl.lua is
# the GPU's part, run by scripts/gpu-check.sh): in a CUDA build it is compiled
# in and libnccl.so.2 opens at run time; a missing library and a machine (or
# virtual devices) without a GPU give PyTorch 2.15's errors; a CPU-only build
# says what PyTorch's CPU-only build says.
nccl_init='print(pcall(torch.distributed.init_process_group, {backend="nccl", init_method="tcp://127.0.0.1:29630", rank=0, world_size=1}))'
nccl_said() {  # nccl_said WHAT EXPECTED_LINE [env...]: gpulab's two printed lines
  local what=$1 want=$2 out
  shift 2
  out=$(env "$@" "$G" -e 'print(torch.distributed.is_nccl_available())' -e "$nccl_init" 2>&1)
  [ "$out" = "$want" ] && pass "$what" || { bad "$what"; printf 'got:\n%s\nwanted:\n%s\n' "$out" "$want"; }
}
nodev_ok=$'false\tRuntimeError: nccl2 requires at least one CUDA device'
if "$G" --version | grep -q '^CUDA: compiled in'; then
  if "$G" --version | grep -q 'no NVIDIA driver\|no CUDA-capable'; then
    nccl_said "NCCL compiled in, loaded; no GPU: PyTorch's error" "true"$'\n'"$nodev_ok"
    nccl_said "NCCL on virtual devices: PyTorch's error" "true"$'\n'"$nodev_ok" GPULAB_VIRTUAL_GPUS=2
  fi
  nccl_said "libnccl.so.2 missing: unavailable, and init says why" \
    "false"$'\n'"false"$'\t'"RuntimeError: Distributed package doesn't have NCCL built in (gpulab could not load libnccl.so.2: $TMP/none/libnccl.so.2: cannot open shared object file: No such file or directory; install NCCL, e.g. NVIDIA's libnccl2 package, and see \`gpulab doctor\`)" \
    GPULAB_NCCL_LIBRARY="$TMP/none/libnccl.so.2"
  ldd "$G" | grep -q nccl && bad "gpulab links libnccl (it must open it at run time)" || pass "libnccl is not linked"
else
  nccl_said "a CPU-only build has no NCCL, in PyTorch's words" \
    "false"$'\n'"false"$'\t'"RuntimeError: Distributed package doesn't have NCCL built in"
fi

# run NAME TIMEOUT ARGS...: the launcher's output in $TMP/NAME.out, its status in $rc.
run() {
  local name=$1 limit=$2
  shift 2
  timeout -k 5 "$limit" "$G" run "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
}
tests_passed() {  # every rank printed "N passed, 0 failed"
  local n=$1 name=$2
  [ "$(grep -c '^\[rank[0-9]*\]: [0-9]* passed, 0 failed$' "$TMP/$name.out")" = "$n" ]
}
no_leftovers() {  # every rank that wrote a pid file is gone (within 3 s)
  local left=1 i f
  for i in $(seq 30); do
    left=0
    for f in "$TMP"/pid.*; do
      [ -e "$f" ] || continue
      if kill -0 "$(cat "$f")" 2>/dev/null; then left=1; fi
    done
    [ $left = 0 ] && break
    sleep 0.1
  done
  rm -f "$TMP"/pid.*
  return $left
}

for n in 2 3; do
  run coll$n 240 --nproc-per-node $n --virtual-gpus $n "$D/collectives.lua"
  if [ $rc = 0 ] && tests_passed $n coll$n; then pass "collectives, $n ranks"
  else bad "collectives, $n ranks (status $rc)"; cat "$TMP/coll$n.out" "$TMP/coll$n.err"; fi
done

run ddp2 240 --nproc-per-node 2 --virtual-gpus 2 "$D/ddp_train.lua"
if [ $rc = 0 ] && tests_passed 2 ddp2; then pass "DDP training, 2 ranks on virtual devices"
else bad "DDP training, 2 ranks (status $rc)"; cat "$TMP/ddp2.out" "$TMP/ddp2.err"; fi
run ddp4 240 --nproc-per-node 4 "$D/ddp_train.lua"
if [ $rc = 0 ] && tests_passed 4 ddp4; then pass "DDP training, 4 ranks on the CPU"
else bad "DDP training, 4 ranks (status $rc)"; cat "$TMP/ddp4.out" "$TMP/ddp4.err"; fi

# Exercise 003_average_gradients' reference solution with two real ranks.
sol="$D/../../lessons/exercises/solutions/003_average_gradients.lua"
run avg 120 --nproc-per-node 2 --virtual-gpus 2 "$D/average_gradients.lua" "$sol"
if [ $rc = 0 ] && tests_passed 2 avg; then pass "exercise 003_average_gradients' solution, 2 ranks"
else bad "exercise 003_average_gradients' solution, 2 ranks (status $rc)"; cat "$TMP/avg.out" "$TMP/avg.err"; fi

for what in recv all_reduce; do
  run timeout 60 --nproc-per-node 2 "$D/timeout.lua" $what
  if [ $rc = 0 ] && tests_passed 2 timeout; then pass "gloo's timeout is an error ($what)"
  else bad "gloo's timeout, $what (status $rc)"; cat "$TMP/timeout.out" "$TMP/timeout.err"; fi
done

run tcp 60 --nproc-per-node 3 "$D/init_methods.lua" tcp 29613
if [ $rc = 0 ] && tests_passed 3 tcp; then pass "init_method tcp://"
else bad "init_method tcp:// (status $rc)"; cat "$TMP/tcp.out" "$TMP/tcp.err"; fi
run file 60 --nproc-per-node 2 "$D/init_methods.lua" file "$TMP/store"
if [ $rc = 0 ] && tests_passed 2 file; then pass "init_method file://"
else bad "init_method file:// (status $rc)"; cat "$TMP/file.out" "$TMP/file.err"; fi

# A rank alone where two were promised: the rendezvous times out, in PyTorch's
# words. The expected lines are what PyTorch 2.15.0 printed for the same calls
# (tests/dist/rendezvous_timeout.py, which prints "Type: message"): rank 0
# serves the store and waits for the clients (a 2 s timeout gives up at the
# first whole second past it, 3 s); rank 1 finds no store to connect to.
alone() {  # alone HOW RANK PORT EXPECTED
  local how=$1 r=$2 port=$3 want=$4 out start took
  start=$(date +%s)
  if [ "$how" = env ]; then
    out=$(MASTER_ADDR=127.0.0.1 MASTER_PORT=$port RANK=$r WORLD_SIZE=2 timeout 30 "$G" \
      -e 'torch.distributed.init_process_group{timeout=2}' 2>&1)
  else
    out=$(timeout 30 "$G" -e "torch.distributed.init_process_group{init_method='tcp://127.0.0.1:$port', rank=$r, world_size=2, timeout=2}" 2>&1)
  fi
  took=$(( $(date +%s) - start ))
  if printf '%s\n' "$out" | grep -qxF "gpulab: $want" && [ $took -le 8 ]; then
    pass "a rendezvous that nobody joins times out ($how://, rank $r, ${took}s)"
  else
    bad "rendezvous timeout ($how://, rank $r, ${took}s)"; printf 'got:\n%s\nwanted the line:\ngpulab: %s\n' "$out" "$want"
  fi
}
server_alone='DistStoreError: Timed out after 3 seconds waiting for clients. 1/2 clients joined.'
alone env 0 29614 "$server_alone"
alone tcp 0 29615 "$server_alone"
alone env 1 29616 'DistNetworkError: The client socket has timed out after 2000ms while trying to connect to (127.0.0.1, 29616).'
alone tcp 1 29617 'DistNetworkError: The client socket has timed out after 2000ms while trying to connect to (127.0.0.1, 29617).'

run env 60 --nproc-per-node 2 --master-port 29611 "$D/launcher_env.lua" "$TMP"
if [ $rc = 0 ] &&
   grep -qx '\[rank0\]: RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 GROUP_RANK=0 MASTER_ADDR=127.0.0.1 ' "$TMP/env.out" &&
   grep -qx '\[rank1\]: RANK=1 LOCAL_RANK=1 WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 GROUP_RANK=0 MASTER_ADDR=127.0.0.1 ' "$TMP/env.out" &&
   grep -qx '\[rank1\]: no newline at the end' "$TMP/env.out" &&
   grep -qx '\[rank0\]: to stderr' "$TMP/env.err"; then pass "environment and [rankN]: prefixes"
else bad "environment and prefixes (status $rc)"; cat "$TMP/env.out" "$TMP/env.err"; fi
no_leftovers && pass "no process left after a run" || bad "processes left after a run"

# Node 1 of 2 with 3 processes each: global ranks 3..5, torchrun's numbering.
run node 60 --nnodes 2 --node-rank 1 --nproc-per-node 3 --master-port 29612 "$D/launcher_env.lua"
if grep -qx '\[rank5\]: RANK=5 LOCAL_RANK=2 WORLD_SIZE=6 LOCAL_WORLD_SIZE=3 GROUP_RANK=1 MASTER_ADDR=127.0.0.1 ' "$TMP/node.out"
then pass "--nnodes/--node-rank numbering"; else bad "--nnodes/--node-rank numbering"; cat "$TMP/node.out"; fi

for how in error early kill; do
  start=$(date +%s)
  run fail_$how 60 --nproc-per-node 4 "$D/fail_rank.lua" "$TMP" $how
  took=$(( $(date +%s) - start ))
  if [ $how = kill ]; then want=137; code='-9 (SIGKILL)'; else want=1; code='1'; fi
  if [ $rc = $want ] && [ $took -lt 30 ] &&
     grep -q "^  rank      : 1 (local_rank: 1)$" "$TMP/fail_$how.err" &&
     grep -q "^  exitcode  : $code (pid: " "$TMP/fail_$how.err"; then
    pass "a rank that fails ($how) stops the run in ${took}s, status $rc, named"
  else
    bad "a failing rank ($how): status $rc after ${took}s"; cat "$TMP/fail_$how.out" "$TMP/fail_$how.err"
  fi
  [ $how != kill ] && { grep -q '^\[rank1\]: .*boom on rank 1' "$TMP/fail_$how.err" &&
    pass "the failed rank's error is shown" || bad "the failed rank's error is shown"; }
  no_leftovers && pass "no process left after a failure ($how)" || bad "processes left after a failure ($how)"
done

# The launcher itself killed (SIGKILL: no chance to clean up): its ranks die with it.
"$G" run --nproc-per-node 2 "$D/spin.lua" "$TMP" >/dev/null 2>&1 &
launcher=$!
for i in $(seq 50); do [ -e "$TMP/pid.1" ] && [ -e "$TMP/pid.0" ] && break; sleep 0.1; done
kill -KILL $launcher
wait $launcher 2>/dev/null
no_leftovers && pass "a killed launcher leaves no rank behind" || bad "ranks outlive a killed launcher"

"$G" run >/dev/null 2>"$TMP/usage.err"
rc=$?
[ $rc = 2 ] && grep -q 'gpulab run: no script given' "$TMP/usage.err" && pass "usage error" || bad "usage error (status $rc)"

exit $fail
