#!/usr/bin/env bash
# Prints a python that has the Jupyter clients the kernel's tests use
# (`python.sh MODULE...`), or nothing: scripts/setup.sh --tests makes a venv over
# Debian's python3 with jupyter_kernel_test; Debian's python3 has jupyter_client
# and nbclient from python3-jupyter-client and python3-nbclient.
for py in "${GPULAB_JUPYTER_PYTHON:-}" "${GPULAB_JUPYTER_VENV:-$HOME/.cache/gpulab/jupyter-venv}/bin/python" \
          /usr/bin/python3 python3; do
  [ -n "$py" ] || continue
  command -v "$py" >/dev/null 2>&1 || continue
  ok=1
  for m in "$@"; do "$py" -c "import $m" >/dev/null 2>&1 || { ok=0; break; }; done
  if [ $ok = 1 ]; then echo "$py"; exit 0; fi
done
exit 1
