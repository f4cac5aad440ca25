# Part of tests/cli/run.sh (sourced, with its helpers and $WORK): the REPL in a real terminal (tmux).
# shellcheck shell=bash
# ---- the REPL in a terminal (tmux) ----
if ! command -v tmux >/dev/null 2>&1; then
  echo "skip terminal tests: tmux is not installed"
else
  SOCK=gpulab-cli-$$
  T="tmux -L $SOCK"
  screen() { $T capture-pane -p -t cli 2>/dev/null; }
  # wait_for PATTERN [SECONDS]: polls the screen for up to 10 s (or SECONDS).
  wait_for() {
    local i
    for i in $(seq $((${2:-10} * 10))); do
      if screen | grep -Eq -- "$1"; then return 0; fi
      sleep 0.1
    done
    return 1
  }
  tfail() { : >"$OUT"; screen >"$ERR"; fail "$@"; }
  if ! $T new-session -d -s cli -x 120 -y 40 \
      "env TERM=xterm HOME=$HOME NO_COLOR=1 '$GPULAB'; echo EXITED=\$?; sleep 60" 2>/dev/null; then
    echo "skip terminal tests: tmux cannot start a session here"
  elif wait_for '^>>> ?$'; then
    if screen | grep -q '^gpulab [0-9.]* (Lua 5.4)' && screen | grep -q 'Ctrl-D to exit' &&
        screen | grep -q '^No GPU found: run with --virtual-gpus 2'; then
      pass "terminal: banner"
    else
      tfail "terminal: banner" "no banner"
    fi
    $T send-keys -t cli 'zz_completion_target = 7' Enter
    wait_for '^>>> ?$' && sleep 0.2
    $T send-keys -t cli 'zz_completion_ta'
    sleep 0.2
    $T send-keys -t cli Tab
    sleep 0.3
    $T send-keys -t cli Enter
    if wait_for '^7$'; then pass "terminal: tab completion"; else tfail "terminal: tab completion" "no 7"; fi
    $T send-keys -t cli 'while true do end' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    if wait_for '^KeyboardInterrupt$'; then
      $T send-keys -t cli '6 * 7' Enter
      if wait_for '^42$'; then pass "terminal: Ctrl-C interrupts running code"
      else tfail "terminal: Ctrl-C interrupts running code" "no prompt after it"; fi
    else
      tfail "terminal: Ctrl-C interrupts running code" "no KeyboardInterrupt"
    fi
    # Completion by what objects have (tests/repl tests the logic itself).
    $T send-keys -t cli 'x = torch.ones(2, 3)' Enter
    $T send-keys -t cli 'lin = nn.Linear(2, 3)' Enter
    $T send-keys -t cli 'net = nn.Sequential(nn.Linear(4, 5))' Enter
    wait_for '^>>> net = ' && sleep 0.3
    complete_and_run() {  # complete_and_run NAME TYPED REST EXPECTED
      $T send-keys -t cli "$2"
      sleep 0.3
      $T send-keys -t cli Tab
      sleep 0.3
      $T send-keys -t cli "$3" Enter
      if wait_for "$4"; then pass "terminal: $1"; else tfail "terminal: $1" "no match for $4"; fi
    }
    complete_and_run "completes a tensor's field (x.sh -> x.shape)" 'x.sh' '' '^torch.Size\(\[2, 3\]\)$'
    complete_and_run "completes a module's method (lin:par)" '#lin:par' '()' '^2$'
    complete_and_run "completes through an index (net[0].w)" 'net[0].w' '.shape[0] * 111' '^555$'
    complete_and_run "completes an option name ({dev)" 'torch.ones(3, {dev' "'cpu'})" '^tensor\(\[1\., 1\., 1\.\]\)$'
    # Ctrl-C in a long C operation (one 6000x6000 mm: seconds even on many
    # cores): said at once, and the session survives a second one. The blank
    # lines push the last test's KeyboardInterrupt off the screen first.
    $T send-keys -t cli 'io.write(("\n"):rep(45))' Enter
    sleep 0.3
    $T send-keys -t cli 'a = torch.randn(6000, 6000); print("ready" .. "-a")' Enter
    wait_for '^ready-a$' 30
    $T send-keys -t cli 'print("busy" .. "-a"); for _ = 1, 100 do a:mm(a) end' Enter
    wait_for '^busy-a$' 30
    sleep 0.2
    $T send-keys -t cli C-c
    sleep 0.15
    $T send-keys -t cli C-c
    if wait_for '^interrupting after the current operation' && wait_for '^Still interrupting' &&
        wait_for '^KeyboardInterrupt$' 60; then
      $T send-keys -t cli '6 * 9' Enter
      if wait_for '^54$'; then pass "terminal: Ctrl-C twice during a long op: said at once, session kept"
      else tfail "terminal: Ctrl-C twice during a long op" "no prompt after it"; fi
    else
      tfail "terminal: Ctrl-C twice during a long op" "no 'interrupting after...', 'Still interrupting' or KeyboardInterrupt"
    fi
    # Ctrl-C stops a loop inside a coroutine, and the next input runs normally.
    $T send-keys -t cli 'io.write(("\n"):rep(45))' Enter
    sleep 0.3
    $T send-keys -t cli 'g = coroutine.wrap(function() while true do end end)' Enter
    $T send-keys -t cli 'g()' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    sleep 0.3
    $T send-keys -t cli 'coroutine.resume(coroutine.create(function() while true do end end))' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    sleep 0.3
    $T send-keys -t cli '6 * 8' Enter
    if wait_for '^48$' && [[ $(screen | grep -c '^KeyboardInterrupt$') -ge 2 ]]; then
      pass "terminal: Ctrl-C stops loops in coroutines (wrap and resume)"
    else
      tfail "terminal: Ctrl-C stops loops in coroutines (wrap and resume)"
    fi
    $T send-keys -t cli 'io.write(("\n"):rep(45))' Enter
    sleep 0.3
    $T send-keys -t cli 'for i = 1, 2 do' Enter
    $T send-keys -t cli 'print(i)' Enter
    wait_for '^\.\.\. print' && sleep 0.2
    $T send-keys -t cli C-c
    sleep 0.2
    $T send-keys -t cli '7 * 7' Enter
    if wait_for '^49$' && screen | grep -q '^KeyboardInterrupt$'; then pass "terminal: Ctrl-C at a continuation cancels the block"
    else tfail "terminal: Ctrl-C at a continuation cancels the block"; fi
    $T send-keys -t cli 'for i = 1, 3 do' Enter Enter Enter
    sleep 0.3
    $T send-keys -t cli '8 * 8' Enter
    if wait_for '^64$' && screen | grep -q "'end' expected"; then pass "terminal: two blank lines leave a continuation"
    else tfail "terminal: two blank lines leave a continuation"; fi
    $T send-keys -t cli 'this line is dropped'
    sleep 0.2
    $T send-keys -t cli C-c
    sleep 0.2
    $T send-keys -t cli '1 + 1' Enter
    if wait_for '^2$' && ! screen | grep -q 'syntax'; then pass "terminal: Ctrl-C at the prompt clears the line"
    else tfail "terminal: Ctrl-C at the prompt clears the line"; fi
    $T send-keys -t cli C-d
    if wait_for '^EXITED=0$'; then pass "terminal: Ctrl-D exits with status 0"
    else tfail "terminal: Ctrl-D exits with status 0"; fi
    if grep -q 'zz_completion_target' "$HOME/.gpulab_history" 2>/dev/null; then pass "terminal: history saved"
    else tfail "terminal: history saved" "no ~/.gpulab_history entry"; fi
  else
    tfail "terminal: REPL starts" "no prompt"
  fi
  $T kill-server 2>/dev/null
  # --step in a terminal: pauses before each next cell, naming it; q quits.
  T="tmux -L $SOCK-step"
  if $T new-session -d -s cli -x 120 -y 60 \
      "env TERM=xterm HOME=$HOME NO_COLOR=1 GPULAB_LESSONS=$FIX/lessons '$GPULAB' lesson 01_basics --step; echo EXITED=\$?; sleep 60" 2>/dev/null; then
    if wait_for '^\[Enter: cell 2/5 "Statements run; print writes", q: quit\]' && ! screen | grep -q '^gpulab$'; then
      $T send-keys -t cli Enter
      if wait_for '^gpulab$' && wait_for '^\[Enter: cell 3/5 "A trailing semicolon hides the echo", q: quit\]'; then
        $T send-keys -t cli q Enter
        if wait_for '^EXITED=0$' && ! screen | grep -q '^\[3/5\]'; then pass "terminal: lesson --step pauses per cell, q quits"
        else tfail "terminal: lesson --step pauses per cell, q quits" "q did not stop the lesson"; fi
      else
        tfail "terminal: lesson --step pauses per cell, q quits" "Enter did not run the next cell"
      fi
    else
      tfail "terminal: lesson --step pauses per cell, q quits" "no pause naming the next cell"
    fi
    $T kill-server 2>/dev/null
  else
    echo "skip terminal test of --step: tmux cannot start a second session here"
  fi
  # A third Ctrl-C within a second ends gpulab, after saying so (a server of its own).
  T="tmux -L $SOCK-b"
  if ! $T new-session -d -s cli -x 120 -y 40 \
      "env TERM=xterm HOME=$HOME NO_COLOR=1 '$GPULAB'; echo EXITED=\$?; sleep 60" 2>/dev/null; then
    echo "skip terminal test of a third Ctrl-C: tmux cannot start a session here"
  elif wait_for '^>>> ?$' 30; then  # 30 s: a loaded machine (ctest -j16 beside sanitizers) took over 10
    $T send-keys -t cli 'a = torch.randn(6000, 6000); print("ready" .. "-a")' Enter
    wait_for '^ready-a$' 30
    # the presses go in once the loop runs (a fixed wait lost the race under ASan)
    $T send-keys -t cli 'print("busy" .. "-a"); for _ = 1, 100 do a:mm(a) end' Enter
    wait_for '^busy-a$' 30
    sleep 0.2
    $T send-keys -t cli C-c
    sleep 0.1
    $T send-keys -t cli C-c
    sleep 0.1
    $T send-keys -t cli C-c
    if wait_for '^EXITED=130$' && screen | grep -q '^Third Ctrl-C within a second: gpulab stops now'; then
      pass "terminal: a third Ctrl-C within a second ends gpulab, saying so"
    else
      tfail "terminal: a third Ctrl-C within a second ends gpulab, saying so"
    fi
  else
    tfail "terminal: a third Ctrl-C within a second ends gpulab, saying so" "the REPL did not start"
  fi
  $T kill-server 2>/dev/null
fi

