#!/usr/bin/env bash
# The Jupyter kernel with real clients: usage: run.sh GPULAB cli|protocol|console|notebooks
#   cli       the kernelspec; connection files others could read refused
#   protocol  jupyter_kernel_test's suite and our own (test_kernel.py)
#   notebooks every lesson exported with `lessons --ipynb`, run by nbclient, against its transcript
#   console   one short `jupyter console --kernel gpulab` session on piped input
# A missing client, or a gpulab built without the kernel (tests/CMakeLists.txt
# sets GPULAB_KERNEL_BUILT=0 when CMake found no xeus), skips the test loudly
# (exit 77: ctest's SKIP_RETURN_CODE).
set -uo pipefail
gpulab=$(realpath "$1")
what=$2
here=$(cd "$(dirname "$0")" && pwd)
if [ "${GPULAB_KERNEL_BUILT:-1}" = 0 ]; then
  echo "SKIPPED: kernel_$what: this gpulab was built without the Jupyter kernel (CMake found no xeus;" \
       "install xeus-dev, cppzmq-dev, libzmq3-dev and nlohmann-json3-dev, as scripts/setup.sh does, and configure again)" >&2
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
skip() { echo "SKIPPED: $*  (scripts/setup.sh --tests installs it)" >&2; exit 77; }

# The clients, found before HOME moves to the scratch directory.
py=$("$here/python.sh" jupyter_kernel_test jupyter_client zmq) || py=""
nbpy=$("$here/python.sh" nbclient nbformat) || nbpy=""
if [ "$what" = notebooks ]; then  # as tests/lessons/check.sh runs a lesson
  "$gpulab" kernel install --prefix "$tmp" --seed 0 >/dev/null || { echo "FAIL: kernel install"; exit 1; }
  export GPULAB_EMULATE_GPUS=1 GPULAB_QUICK=1 OMP_NUM_THREADS=1 GPULAB_LESSONS="$here/../../lessons"
else
  "$gpulab" kernel install --prefix "$tmp" --virtual-gpus 2 >/dev/null || { echo "FAIL: kernel install"; exit 1; }
fi
export JUPYTER_PATH="$tmp/share/jupyter" JUPYTER_RUNTIME_DIR="$tmp/runtime" JUPYTER_DATA_DIR="$tmp/data"
export JUPYTER_CONFIG_DIR="$tmp/config" JUPYTER_PLATFORM_DIRS=1 NO_COLOR=1 HOME="$tmp"
case $what in
  protocol)
    [ -n "$py" ] || skip "no python with jupyter_kernel_test"
    exec "$py" "$here/test_kernel.py"
    ;;
  cli)
    # the kernelspec, and connection files others could read refused
    fail=0
    spec="$tmp/share/jupyter/kernels/gpulab/kernel.json"
    for want in '"language": "lua"' '"interrupt_mode": "signal"' '"{connection_file}"' '"--virtual-gpus", "2"' \
                "\"$gpulab\", \"kernel\", \"-f\""; do
      grep -qF -- "$want" "$spec" || { echo "FAIL: kernel.json lacks $want"; fail=1; }
    done
    HOME="$tmp/home" XDG_DATA_HOME= JUPYTER_DATA_DIR= "$gpulab" kernel install --user >/dev/null &&
      [ -f "$tmp/home/.local/share/jupyter/kernels/gpulab/kernel.json" ] || { echo "FAIL: kernel install --user"; fail=1; }
    echo '{"key": "k", "ip": "127.0.0.1"}' > "$tmp/conn.json"
    chmod 644 "$tmp/conn.json"
    out=$("$gpulab" kernel -f "$tmp/conn.json" 2>&1) && { echo "FAIL: a world-readable connection file was used"; fail=1; }
    grep -qF "can be read or written by other users (mode 644)" <<<"$out" || { echo "FAIL: $out"; fail=1; }
    out=$("$gpulab" kernel -f "$tmp/missing.json" 2>&1) && { echo "FAIL: a missing connection file"; fail=1; }
    out=$("$gpulab" kernel 2>&1); [ $? = 2 ] || { echo "FAIL: 'gpulab kernel' alone: $out"; fail=1; }
    [ $fail = 0 ] && echo "kernel cli: all passed"
    exit $fail
    ;;
  notebooks)
    # lessons exported with --ipynb, run by nbclient, against their golden transcripts
    [ -n "$nbpy" ] || skip "no python with nbclient and nbformat (Debian's python3-nbclient)"
    exec "$nbpy" "$here/lesson_notebooks.py" "$gpulab" "$here/../lessons"  # every lesson
    ;;
  console)
    # Note [Console input after the prompt]: jupyter_console 6.4 sends a cell as soon as
    # kernel_info is answered and then waits on IOPub for the cell's "idle". When the kernel
    # binds its sockets after the console first tried to connect (a loaded machine, a slow
    # start), ZeroMQ reconnects the shell and IOPub sockets on separate 100 ms timers: a cell
    # sent in between has its "idle" dropped by PUB/SUB, and the console waits forever (ten
    # tries with the kernel started 1.5 s late: five to eight hung). Lines piped in at once hit
    # that window; a person typing does not. So the session types as a person does: each
    # line once its prompt is shown, the first a moment after.
    command -v jupyter-console >/dev/null || skip "no jupyter-console (Debian's jupyter-console)"
    lines=('x = torch.arange(4)' 'x * 2' 'print("printed", x:sum():item())' 'torch.ones(2) + torch.ones(3)' 'x:sum()')
    mkfifo "$tmp/in"
    PYTHONUNBUFFERED=1 timeout 60 jupyter-console --kernel gpulab --simple-prompt \
      --ZMQTerminalInteractiveShell.kernel_timeout=30 <"$tmp/in" >"$tmp/out" 2>&1 &
    pid=$!
    exec 3>"$tmp/in"
    shown() {  # waits up to 30 s for the prompt "In [$1]:"
      for _ in $(seq 300); do grep -qF "In [$1]:" "$tmp/out" && return 0; sleep 0.1; done
      return 1
    }
    n=1
    for line in "${lines[@]}"; do
      shown $n || break
      [ $n = 1 ] && sleep 1
      printf '%s\n' "$line" >&3
      n=$((n + 1))
    done
    exec 3>&-
    wait $pid
    status=$?
    cat "$tmp/out"
    fail=0
    for want in 'Out[2]: tensor([0, 2, 4, 6])' $'printed\t6' \
                'RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0' \
                'Out[5]: tensor(6)'; do
      grep -qF -- "$want" "$tmp/out" || { echo "FAIL: the console session lacks: $want"; fail=1; }
    done
    [ $status = 0 ] || { echo "FAIL: jupyter-console exited with $status"; fail=1; }
    exit $fail
    ;;
esac
