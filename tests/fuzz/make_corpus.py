#!/usr/bin/env python3
"""Writes the seed corpus in tests/fuzz/corpus: a few valid safetensors files and
one of each kind of malformed file the loader must refuse. Needs only the
standard library (the file written by the safetensors library itself is made
only when `safetensors` and `torch` are installed)."""
import json, os, struct, sys

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
os.makedirs(out, exist_ok=True)


def write(name, header, data=b"", length=None):
    h = header if isinstance(header, bytes) else json.dumps(header, separators=(",", ":")).encode()
    if length is None:
        h += b" " * (-len(h) % 8)
        length = len(h)
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<Q", length) + h + data)


f32 = lambda *v: struct.pack("<%df" % len(v), *v)
t = lambda dt, shape, b, e: {"dtype": dt, "shape": shape, "data_offsets": [b, e]}

write("valid_empty", {})
write("valid_two", {"__metadata__": {"format": "pt"}, "w": t("F32", [2, 2], 0, 16), "b": t("I64", [1], 16, 24)},
      f32(1, 2, 3, 4) + struct.pack("<q", -7))
write("valid_gpulab", {"__metadata__": {"gpulab.kind": "table", "gpulab.tables": "t m", "gpulab.value.m.n": "i:5",
                                        "gpulab.device.m.x": "cuda:1", "gpulab.device.y": "cpu"},
                       "m.x": t("F64", [2], 0, 16), "y": t("BOOL", [3], 16, 19), "z": t("BF16", [0, 3], 19, 19)},
      struct.pack("<2d", 0.5, -1.0) + b"\x01\x00\x01")
write("valid_all_dtypes", {"a": t("F16", [1], 0, 2), "b": t("I32", [1], 2, 6), "c": t("I16", [1], 6, 8),
                           "d": t("I8", [1], 8, 9), "e": t("U8", [1], 9, 10)}, bytes(range(10)))
write("bad_truncated", {"w": t("F32", [4], 0, 16)}, f32(1, 2))
write("bad_header_length", {}, b"", length=1 << 40)
write("bad_json", b'{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],}}', f32(1))
write("bad_overlap", {"a": t("F32", [2], 0, 8), "b": t("F32", [2], 4, 12)}, f32(1, 2, 3))
write("bad_dtype", {"a": t("F8_E4M3", [4], 0, 4)}, b"\0" * 4)
write("bad_huge_shape", {"a": t("F32", [1 << 40, 1 << 40], 0, 4)}, b"\0" * 4)
write("bad_negative_dim", b'{"a":{"dtype":"U8","shape":[-4],"data_offsets":[0,4]}}', b"\0" * 4)
write("bad_size_mismatch", {"a": t("F32", [3], 0, 8)}, f32(1, 2))
write("bad_reversed_offsets", {"a": t("U8", [4], 4, 0)}, b"\0" * 4)
write("bad_duplicate", b'{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', b"x")

try:
    import torch
    from safetensors.torch import save_file
except ImportError:
    sys.exit(0)
save_file({"x": torch.arange(6, dtype=torch.float32).reshape(2, 3), "i": torch.tensor([1, 2], dtype=torch.int32)},
          os.path.join(out, "valid_python"), metadata={"format": "pt"})
