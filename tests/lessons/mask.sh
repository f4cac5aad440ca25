# Sourced by check.sh and gpu.sh: mask, the filter that hides what changes from run to run.
# Timings are always printed as a decimal number followed by " s", " ms" or
# " us" (replaced with <time>), ratios of timings as "N.NNx" (replaced
# with <ratio>; "4x4" is left alone), and speeds as "N examples/sec"
# (<rate>). The process id in torch.cuda.smi()'s Processes rows and in
# list_gpu_processes() reads PID.
mask() {
  sed -E \
    -e 's/[0-9]+(\.[0-9]+)?(e-?[0-9]+)? (s|ms|us)\b/<time>/g' \
    -e 's/\b[0-9]+(\.[0-9]+)?x\b/<ratio>/g' \
    -e 's/\b[0-9]+(\.[0-9]+)? examples\/sec\b/<rate> examples\/sec/g' \
    -e 's/(N\/A  N\/A) +[0-9]+      C /\1        PID      C /' \
    -e 's/^process +[0-9]+ uses /process        PID uses /'
}

