-- Ops checked against PyTorch: tests/golden/op_cases.txt holds gpulab
-- expressions and what real PyTorch printed for the same computation
-- (regenerate with tests/golden/make_op_cases.py, which needs torch).
GOLDEN_DIR = arg[0]
GOLDEN_CASES = 'op_cases.txt'
dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/test_print_golden.lua')
