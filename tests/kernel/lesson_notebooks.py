"""Lessons exported as notebooks and run on the gpulab kernel with nbclient give
the outputs of their golden transcripts (tests/lessons/NAME.out).

usage: python3 lesson_notebooks.py GPULAB GOLDEN_DIR [NAME...]
Without names: the whole course, exported with `gpulab lessons --ipynb DIR`.
Prose lines printed as they are in the terminal (indented output, a command)
must stay lines in the notebook's markdown (a fenced block), not be joined
into the paragraph above them. A cell that trains with d2l.train_ch3 or d2l.train_ch6 must also show the
book's animated plot (a display_data with an image, updated per epoch), which
the terminal and the transcripts do not have; e1_softmax_scratch must be one.
(the 'gpulab' kernelspec must be on JUPYTER_PATH, installed with --seed 0, and
GPULAB_EMULATE_GPUS=1 GPULAB_QUICK=1 OMP_NUM_THREADS=1 set, as tests/lessons/check.sh runs a
lesson; run.sh does it)
"""
import os
import re
import subprocess
import sys
import tempfile
import time

import nbformat
from nbclient import NotebookClient

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def mask(text):
    """tests/lessons/check.sh's mask of run-dependent timings and process ids."""
    text = re.sub(r"[0-9]+(\.[0-9]+)?(e-?[0-9]+)? (s|ms|us)\b", "<time>", text)
    text = re.sub(r"\b[0-9]+(\.[0-9]+)?x\b", "<ratio>", text)
    text = re.sub(r"\b[0-9]+(\.[0-9]+)? examples/sec\b", "<rate> examples/sec", text)
    text = re.sub(r"(N/A  N/A) +[0-9]+      C ", r"\1        PID      C ", text)
    return re.sub(r"(?m)^process +[0-9]+ uses ", "process        PID uses ", text)


def golden_outputs(text):
    """The output of each code cell of a transcript: the lines after its code."""
    outputs = []
    sections = re.split(r"(?m)^\[\d+/\d+\].*$", text)[1:]
    for section in sections:
        lines = section.split("\n")
        code = [i for i, l in enumerate(lines) if re.match(r"^(>>>|\.\.\.)( |$)", l)]
        if not code:
            continue
        out = lines[code[-1] + 1:]
        while out and out[-1] == "":
            out.pop()
        outputs.append("\n".join(out))
    return outputs


def notebook_output(cell):
    text = ""
    for o in cell.outputs:
        if o.output_type == "stream":
            text += o.text
        elif o.output_type == "execute_result":
            text += o.data["text/plain"] + "\n"
        elif o.output_type == "error":
            text += "\n".join(ANSI.sub("", l) for l in o.traceback) + "\n"
    return mask(text.rstrip("\n"))


LIST_ITEM = re.compile(r"^([-*+]|[0-9]+[.)]) ")


def joined_lines(name, nb):
    """Indented markdown lines outside a fenced block that continue no list
    item: markdown would run them into the paragraph above."""
    failures = []
    for i, c in enumerate(nb.cells):
        if c.cell_type != "markdown":
            continue
        fenced = in_list = False
        for line in c.source.split("\n"):
            if line.startswith("```"):
                fenced = not fenced
            elif fenced:
                continue
            elif not line.strip():
                in_list = False
            elif not line.startswith(" "):
                in_list = bool(LIST_ITEM.match(line))
            elif not in_list:
                failures.append("FAIL %s, markdown cell %d: an indented line would join its paragraph: %r"
                                % (name, i + 1, line))
    return failures


TRAINING = re.compile(r"\bd2l\.train_ch[36]\(")
FIGURE_LESSON = "e1_softmax_scratch"  # trains with d2l.train_ch3


def training_figures(name, nb):
    """The failures of the training cells' figures (each needs a display_data
    with an image/svg+xml or image/png), and how many training cells there were."""
    failures, cells = [], 0
    for i, c in enumerate(nb.cells):
        if c.cell_type != "code" or not TRAINING.search(c.source):
            continue
        cells += 1
        shown = [o for o in c.outputs if o.output_type == "display_data"
                 and ("image/svg+xml" in o.data or "image/png" in o.data)]
        if len(shown) != 1:
            failures.append("FAIL %s, cell %d: %d figures (want 1, d2l.Animator's) for\n%s"
                            % (name, i + 1, len(shown), c.source))
    return failures, cells


def check(name, path, golden_dir, figures):
    """Runs one exported notebook; the number of failures (0 or 1). figures: a
    set the name goes into when it has training cells, each with its figure."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    md_failures = joined_lines(name, nb)
    for f in md_failures:
        print(f)
    started = time.monotonic()
    NotebookClient(nb, kernel_name="gpulab", timeout=600).execute()
    took = time.monotonic() - started
    got = [notebook_output(c) for c in nb.cells
           if c.cell_type == "code" and "gpulab-setup" not in c.metadata.get("tags", [])]
    with open(os.path.join(golden_dir, name + ".out"), encoding="utf-8") as f:
        want = golden_outputs(f.read())
    if len(got) != len(want):
        print("FAIL %s: %d code cells in the notebook, %d in the transcript" % (name, len(got), len(want)))
        return 1
    bad = [i for i in range(len(got)) if got[i] != want[i]]
    for i in bad:
        print("FAIL %s, code cell %d:\n--- transcript\n%s\n--- notebook\n%s" % (name, i + 1, want[i], got[i]))
    fig_failures = []
    if figures is not None:
        fig_failures, training_cells = training_figures(name, nb)
        for f in fig_failures:
            print(f)
        if training_cells and not fig_failures:
            figures.add(name)
    if not bad and not fig_failures and not md_failures:
        print("ok   %s: %d code cells match the transcript (%.1f s)" % (name, len(got), took), flush=True)
    return 1 if bad or fig_failures or md_failures else 0


def main():
    gpulab, golden_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = 0
    have_cairo = subprocess.run([gpulab, "-e", "io.write(tostring(torch._have_cairo()))"],
                                capture_output=True, text=True).stdout == "true"
    figures = set() if have_cairo else None
    if not have_cairo:
        print("SKIPPED: the training figures (this gpulab was built without cairo)")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        if names:
            for name in names:
                subprocess.run([gpulab, "lesson", name, "--ipynb", os.path.join(tmp, name + ".ipynb")], check=True)
        else:  # the whole course, as a teacher would hand it out
            subprocess.run([gpulab, "lessons", "--ipynb", tmp], check=True, stdout=subprocess.DEVNULL)
            names = sorted(f[:-len(".ipynb")] for f in os.listdir(tmp) if f.endswith(".ipynb"))
            missing = [n for n in names if not os.path.exists(os.path.join(golden_dir, n + ".out"))]
            for n in missing:
                print("FAIL %s: no golden transcript" % n)
            failed += len(missing)
            names = [n for n in names if n not in missing]
            if not names:
                print("FAIL: `gpulab lessons --ipynb` wrote no notebook")
                failed += 1
        for name in names:
            failed += check(name, os.path.join(tmp, name + ".ipynb"), golden_dir, figures)
    if figures is not None and FIGURE_LESSON in names and FIGURE_LESSON not in figures:
        print("FAIL %s: no training figure checked" % FIGURE_LESSON)
        failed += 1
    elif figures:
        print("training figures shown in: %s" % ", ".join(sorted(figures)))
    print("%d notebooks, %d failed, %.0f s" % (len(names), failed, time.monotonic() - started))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
